// cmark, the CommonMark reference C library (Debian's libcmark-dev): parses the inline Markdown of Text literals.
#include <cmark.h>
