/* glradix-bench --dump-programs DIR: writes the driver's binary of every GL
 * program in the context (the library's, compiled by the runs before), named
 * by program and its storage blocks, to look at register use offline (on
 * NVIDIA the binary embeds the compiled machine code). */
#include <glad/gl.h>

#include "dump_programs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dump_programs(struct GladGLContext *gl, const char *dir, FILE *info) {
  int dumped = 0;
  for (GLuint name = 1; name < 4096; ++name) {
    if (!gl->IsProgram(name)) continue;
    GLint len = 0, blocks = 0;
    gl->GetProgramiv(name, GL_PROGRAM_BINARY_LENGTH, &len);
    gl->GetProgramInterfaceiv(name, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
    char label[256] = "";
    for (GLint b = 0; b < blocks; ++b) {
      char block[64];
      gl->GetProgramResourceName(name, GL_SHADER_STORAGE_BLOCK, (GLuint)b, sizeof block, NULL,
                                 block);
      if (strlen(label) + strlen(block) + 2 < sizeof label) {
        strcat(label, "_");
        strcat(label, block);
      }
    }
    void *bin = len > 0 ? malloc((size_t)len) : NULL;
    if (!bin) continue;
    GLenum format = 0;
    gl->GetProgramBinary(name, len, NULL, &format, bin);
    char path[512];
    snprintf(path, sizeof path, "%s/program%u%s.bin", dir, name, label);
    FILE *f = fopen(path, "wb");
    if (f) {
      fwrite(bin, 1, (size_t)len, f);
      fclose(f);
      fprintf(info, "dumped %s (%d bytes, format 0x%x)\n", path, len, format);
      ++dumped;
    }
    free(bin);
  }
  return dumped;
}
