/* The GPU's graphics clock, where NVIDIA's management library (NVML) is
 * installed: the soak reports which sorts ran at the GPU's highest clock,
 * since an OpenGL process's clocks follow its GPU load on that driver. */
#ifndef GLRADIX_BENCH_CLOCK_H
#define GLRADIX_BENCH_CLOCK_H

/* Opens libnvidia-ml.so.1 and the first GPU; 0 if there is none (any
 * other vendor's driver, llvmpipe): then bench_clock_mhz returns 0. */
int bench_clock_open(void);

/* The graphics (SM) clock now, in MHz; 0 when unknown. */
unsigned bench_clock_mhz(void);

/* The highest graphics clock the GPU allows, in MHz; 0 when unknown. */
unsigned bench_clock_max_mhz(void);

#endif
