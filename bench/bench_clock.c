/* The GPU's graphics clock through NVML, loaded at run time so that the
 * bench needs no NVIDIA headers or libraries to build. */
#define _POSIX_C_SOURCE 200809L /* dlopen */
#include "bench_clock.h"

#include <dlfcn.h>
#include <string.h>

/* NVML's C API, as declared in nvml.h: functions return 0 on success. */
typedef void *nvml_device;
enum { NVML_CLOCK_SM = 1 };

static unsigned (*clock_info)(nvml_device, int, unsigned *);
static unsigned (*max_clock_info)(nvml_device, int, unsigned *);
static nvml_device device;

/* dlsym's object pointer as a function pointer, as POSIX allows (a cast
 * would trip -Wpedantic). */
#define LOAD(fn, lib, name)                \
  do {                                     \
    void *p_ = dlsym((lib), (name));       \
    memcpy(&(fn), &p_, sizeof p_);         \
  } while (0)

int bench_clock_open(void) {
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return 0;
  unsigned (*init)(void) = NULL;
  unsigned (*by_index)(unsigned, nvml_device *) = NULL;
  LOAD(init, lib, "nvmlInit_v2");
  LOAD(by_index, lib, "nvmlDeviceGetHandleByIndex_v2");
  LOAD(clock_info, lib, "nvmlDeviceGetClockInfo");
  LOAD(max_clock_info, lib, "nvmlDeviceGetMaxClockInfo");
  if (!init || !by_index || !clock_info || !max_clock_info || init() != 0 ||
      by_index(0, &device) != 0) {
    clock_info = max_clock_info = NULL;
    return 0;
  }
  return 1;
}

unsigned bench_clock_mhz(void) {
  unsigned mhz = 0;
  return clock_info && clock_info(device, NVML_CLOCK_SM, &mhz) == 0 ? mhz : 0;
}

unsigned bench_clock_max_mhz(void) {
  unsigned mhz = 0;
  return max_clock_info && max_clock_info(device, NVML_CLOCK_SM, &mhz) == 0 ? mhz : 0;
}
