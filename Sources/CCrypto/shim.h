// OpenSSL's libcrypto (Debian libssl-dev), for SHA-256 only: the program-binary cache's entry keys and payload
// checksums (Sources/GPUCanvasGLES/ProgramCache.swift).
#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
#include <openssl/sha.h>
#endif
