# ss_zstd_inplace.m4 - does libzstd have its buffer-less decoder?
#
# SS_CHECK_ZSTD_INPLACE
# ---------------------
# libzstd's buffer-less decoder (ZSTD_STATIC_LINKING_ONLY): the functions
# and types src/io/source_zstd.c uses, checked by decoding a frame with
# them (only linked when cross-compiling). Uses ZSTD_CFLAGS and ZSTD_LIBS
# (PKG_CHECK_MODULES first); sets ss_cv_zstd_inplace to yes or no.
AC_DEFUN([SS_CHECK_ZSTD_INPLACE],
[ss_save_CFLAGS=$CFLAGS ss_save_LIBS=$LIBS
CFLAGS="$CFLAGS $ZSTD_CFLAGS" LIBS="$ZSTD_LIBS $LIBS"
m4_pushdef([ss_zstd_inplace_program], [AC_LANG_PROGRAM([[
#define ZSTD_STATIC_LINKING_ONLY
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
]], [[
  static const char text[] = "{\"a\":1}\n{\"b\":2}\n{\"a\":1}\n{\"b\":2}\n";
  size_t cap = ZSTD_compressBound(sizeof(text)), clen, pos = 0, out = 0, n;
  char *z = malloc(cap), *d = malloc(sizeof(text) + ZSTD_BLOCKSIZE_MAX);
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  ZSTD_frameHeader fh;

  if (!z || !d || !dctx)
    return 1;
  clen = ZSTD_compress(z, cap, text, sizeof(text), 1);
  if (ZSTD_isError(clen) || ZSTD_getFrameHeader(&fh, z, clen) != 0 ||
      fh.frameType != ZSTD_frame || fh.blockSizeMax > ZSTD_BLOCKSIZE_MAX ||
      ZSTD_WINDOWLOG_LIMIT_DEFAULT != 27 || ZSTD_SKIPPABLEHEADERSIZE != 8 ||
      ZSTD_isError(ZSTD_decompressBegin(dctx)))
    return 2;
  while ((n = ZSTD_nextSrcSizeToDecompress(dctx)) != 0) {
    ZSTD_nextInputType_e t = ZSTD_nextInputType(dctx);
    size_t r = ZSTD_decompressContinue(dctx, d + out, sizeof(text) + ZSTD_BLOCKSIZE_MAX - out,
                                       z + pos, n);

    if (ZSTD_isError(r) || pos + n > clen || (r > 0 && t != ZSTDnit_block && t != ZSTDnit_lastBlock))
      return 3;
    pos += n;
    out += r;
  }
  return out != sizeof(text) || memcmp(d, text, out) != 0 || pos != clen;
]])])
AC_CACHE_CHECK([whether libzstd has the buffer-less decoder], [ss_cv_zstd_inplace],
  [AC_RUN_IFELSE([ss_zstd_inplace_program],
    [ss_cv_zstd_inplace=yes], [ss_cv_zstd_inplace=no],
    [AC_LINK_IFELSE([ss_zstd_inplace_program],
      [ss_cv_zstd_inplace=yes], [ss_cv_zstd_inplace=no])])])
m4_popdef([ss_zstd_inplace_program])
CFLAGS=$ss_save_CFLAGS LIBS=$ss_save_LIBS
])
