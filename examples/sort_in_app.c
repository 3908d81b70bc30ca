/* Sorting GL buffers inside an application that already has a GL context
 * (GLFW here) and its own GL loader. glradix loads its own function table
 * through the same glfwGetProcAddress and restores the bindings it touches,
 * so the application's state and loader are left alone.
 *   cc sort_in_app.c $(pkg-config --cflags --libs glradix glfw3)  */
#include <stdio.h>
#include <stdlib.h>

#define GLAD_GL_IMPLEMENTATION /* the application's own loader (any will do) */
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <glradix/glradix.h>

static void log_line(void *user, const char *line) { (void)user; fprintf(stderr, "glradix: %s\n", line); }

int main(void) {
  if (!glfwInit()) return 1;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow *window = glfwCreateWindow(64, 64, "sort_in_app", NULL, NULL);
  if (!window) { glfwTerminate(); return 1; }
  glfwMakeContextCurrent(window);
  GladGLContext gl; /* the application's GL */
  if (!gladLoadGLContext(&gl, glfwGetProcAddress)) return 1;

  enum { N = 100000 };
  static uint32_t keys[N], values[N];
  for (uint32_t i = 0; i < N; i++) { keys[i] = (i * 2654435761u) >> 2; values[i] = i; }
  GLuint buffers[2];
  gl.GenBuffers(2, buffers);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[0]);
  gl.BufferData(GL_SHADER_STORAGE_BUFFER, sizeof keys, keys, GL_DYNAMIC_COPY);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[1]);
  gl.BufferData(GL_SHADER_STORAGE_BUFFER, sizeof values, values, GL_DYNAMIC_COPY);

  glradix_desc desc = {0};
  desc.load = glfwGetProcAddress;
  desc.log = log_line;
  glradix_context *ctx;
  if (glradix_create(&desc, &ctx) != GLRADIX_OK) return 1;
  glradix_sort_desc sort = {0};
  sort.keys = buffers[0];
  sort.values = buffers[1];
  sort.count = N;
  sort.end_bit = 30; /* the keys use 30 bits */
  glradix_status st = glradix_sort(ctx, &sort);

  /* glradix issued the barriers a read-back needs */
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[0]);
  gl.GetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof keys, keys);
  int sorted = 1;
  for (uint32_t i = 1; i < N; i++) sorted &= keys[i - 1] <= keys[i];
  printf("sort_in_app: %s, %s\n", glradix_status_string(st), sorted ? "sorted" : "NOT sorted");
  glradix_destroy(ctx);
  gl.DeleteBuffers(2, buffers);
  glfwDestroyWindow(window);
  glfwTerminate();
  return st == GLRADIX_OK && sorted ? 0 : 1;
}
