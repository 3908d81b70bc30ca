/* Writes an RGBA8 image read with glReadPixels (bottom row first) as a PNG. */
#include "demo.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>

int png_write_rgba(const char *path, const unsigned char *bottom_up, int w, int h) {
  FILE *f = fopen(path, "wb");
  png_structp png = NULL;
  png_infop info = NULL;
  png_bytep *rows = malloc((size_t)h * sizeof *rows);
  int ok = 0;
  if (!f || !rows) goto done;
  png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  if (png) info = png_create_info_struct(png);
  if (!info) goto done;
  if (setjmp(png_jmpbuf(png))) goto done; /* libpng reports errors by longjmp */
  for (int y = 0; y < h; ++y) /* PNG rows go top to bottom */
    rows[y] = (png_bytep)(bottom_up + (size_t)(h - 1 - y) * (size_t)w * 4);
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGBA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_rows(png, info, rows);
  png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
  ok = 1;
done:
  if (png) png_destroy_write_struct(&png, info ? &info : NULL);
  if (f && fclose(f) != 0) ok = 0;
  free(rows);
  if (!ok) fprintf(stderr, "glradix-demo: could not write %s\n", path);
  return ok;
}
