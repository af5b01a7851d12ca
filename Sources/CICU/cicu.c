#include "cicu.h"
#include <string.h>
#include <unicode/utypes.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>
#include <unicode/ubrk.h>
#include <unicode/ubidi.h>

const char *cicu_error_name(int32_t status) { return u_errorName((UErrorCode)status); }

void cicu_unicode_version(char *out) {
    UVersionInfo version;
    u_getUnicodeVersion(version);
    u_versionToString(version, out);
}

int32_t cicu_line_breaks(const uint16_t *text, int32_t length, uint8_t *breakBefore) {
    UErrorCode status = U_ZERO_ERROR;
    memset(breakBefore, 0, (size_t)length + 1);
    UBreakIterator *it = ubrk_open(UBRK_LINE, "", (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return status;
    for (int32_t b = ubrk_first(it); b != UBRK_DONE; b = ubrk_next(it)) {
        if (b >= 0 && b <= length) breakBefore[b] = 1;
    }
    ubrk_close(it);
    return status;
}

uint8_t cicu_bidi_default_ltr(void) { return UBIDI_DEFAULT_LTR; }

int32_t cicu_bidi_levels(const uint16_t *text, int32_t length, uint8_t paragraphLevel, uint8_t *levels,
                         uint8_t *resolvedParagraphLevel) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status)) return status;
    ubidi_setPara(bidi, (const UChar *)text, length, paragraphLevel, NULL, &status);
    if (U_SUCCESS(status)) {
        *resolvedParagraphLevel = ubidi_getParaLevel(bidi);
        const UBiDiLevel *resolved = ubidi_getLevels(bidi, &status);
        if (U_SUCCESS(status) && length > 0) memcpy(levels, resolved, (size_t)length);
    }
    ubidi_close(bidi);
    return status;
}

void cicu_bidi_reorder_visual(const uint8_t *levels, int32_t length, int32_t *indexMap) {
    ubidi_reorderVisual(levels, length, indexMap);
}
