// ICU's common library (libicuuc, Debian libicu-dev) for the text engine: UAX #14 line breaking (ubrk) and
// UAX #9 bidi (ubidi), behind functions whose signatures use only C's fixed-width integers.
//
// Why a C target and not a header of inline wrappers: the ICU inside Foundation (_FoundationICU, symbols
// prefixed `swift_`, a newer ICU) declares the same C types (UErrorCode, UChar, UBiDi…) with different
// members, and Swift refuses two modules whose same-named C types differ. So ICU's headers are included only
// by cicu.c; Swift sees this header alone. It also keeps ICU's versioned symbol names (`ubrk_open` →
// `ubrk_open_72` by macro) out of Swift: cicu.c compiles against whatever ICU is installed.
#ifndef CICU_H
#define CICU_H
#include <stdint.h>

/// ICU's name of a status code returned below ("U_MEMORY_ALLOCATION_ERROR"); 0 is success, < 0 a warning.
const char *cicu_error_name(int32_t status);

/// The Unicode version ICU's data implements ("15.0"); `out` holds at least 20 bytes.
void cicu_unicode_version(char *out);

/// UAX #14 line break opportunities of `text` (UTF-16, `length` units) by ICU's root-locale line rules:
/// `breakBefore[i]` (0 ≤ i ≤ length) = 1 where a line may begin at unit i, hard and soft breaks alike, else 0.
/// Returns ICU's status (> 0: failed, `breakBefore` is all 0).
int32_t cicu_line_breaks(const uint16_t *text, int32_t length, uint8_t *breakBefore);

/// The value of `paragraphLevel` below that asks for the first strong character's direction, left-to-right
/// when none (UBIDI_DEFAULT_LTR).
uint8_t cicu_bidi_default_ltr(void);

/// UAX #9 levels of `text` (UTF-16, `length` units, one paragraph): `paragraphLevel` 0 or 1 forces the
/// direction, `cicu_bidi_default_ltr()` takes rules P2–P3. Writes one level per unit into `levels` (rules
/// X1–I2 and L1 applied) and the paragraph's level into `resolvedParagraphLevel`. Returns ICU's status.
int32_t cicu_bidi_levels(const uint16_t *text, int32_t length, uint8_t paragraphLevel, uint8_t *levels,
                         uint8_t *resolvedParagraphLevel);

/// Rule L2 on a levels array: `indexMap[visual] = logical`.
void cicu_bidi_reorder_visual(const uint8_t *levels, int32_t length, int32_t *indexMap);

#endif
