/* The program forms a test runs with (forms_env.c). */
#ifndef GLRADIX_TESTS_FORMS_ENV_H
#define GLRADIX_TESTS_FORMS_ENV_H

#include "testing.h" /* src/: the library's test hook */

/** The hooks $GLRADIX_TEST_FORMS asks for (a GPU's forms), or NULL when it
 *  is unset: the context's own forms. Exits 2 on a word it does not know. */
const _glradix_test_hooks *test_forms(void);
/** Whether this is a *_fallback run (tests/CMakeLists.txt): contexts that
 *  ask for the default plan take the single-pass plan, its look-backs
 *  forced to fall back. Such runs leave out the cases of other plans. */
int test_fallback_run(void);
/** glradix_create with test_forms(), and with every program's storage
 *  blocks checked against src/gl/contract.h's count (exact_blocks). */
glradix_status test_create(const glradix_desc *desc, glradix_context **out);

#endif
