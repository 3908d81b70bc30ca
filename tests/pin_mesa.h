#ifndef GLRADIX_TESTS_PIN_MESA_H
#define GLRADIX_TESTS_PIN_MESA_H
/* Keeps the EGL/Mesa libraries loaded for the whole process (the headless
 * helper unloads libEGL with its last context), so that LeakSanitizer can
 * name their frames and the suppression file can match
 * Mesa's own leaks; fixtures also skip reloading LLVM. Missing libraries
 * are fine. */
void test_pin_mesa(void);
#endif
