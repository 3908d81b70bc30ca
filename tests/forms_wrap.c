/* glradix-bench-gpu-forms: glradix-bench linked with
 * -Wl,--wrap=glradix_create, so that its contexts take the forms
 * GLRADIX_TEST_FORMS asks for (the bench itself uses the public API only). */
#include "forms_env.h"

glradix_status __wrap_glradix_create(const glradix_desc *desc, glradix_context **out);
glradix_status __wrap_glradix_create(const glradix_desc *desc, glradix_context **out) {
  return test_create(desc, out);
}
