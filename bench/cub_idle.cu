// CUB's DeviceRadixSort of uint32 keys with uint32 values after the GPU sat
// idle: the CUDA reference for `glradix-bench --idle MS`, which shows what
// the GPU's idle clocks alone cost a sort that an application issues now
// and then. For each size and idle time: 2 warm-ups and 10 timed runs, each
// run after the keys' upload, a synchronize and a sleep of the idle time;
// CUDA events around the sort call alone; median.
// Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o cub_idle bench/cub_idle.cu && ./cub_idle N,N,... MS,MS,...
// Output: impl,n,key_bits,pairs,radix_bits,idle_ms,ms_median
#include <cub/cub.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

static void check(cudaError_t e, int line) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "cub_idle: CUDA error %s at line %d\n", cudaGetErrorString(e), line);
  exit(1);
}
#define CHECK(x) check((x), __LINE__)

enum { KEY_BITS = 30 };

static std::vector<long> parse_list(const char *s) {
  std::vector<long> v;
  for (char *end = nullptr;; s = end + 1) {
    v.push_back(strtol(s, &end, 10));
    if (*end != ',') break;
  }
  return v;
}

static void run(int n, const std::vector<long> &idle) {
  std::mt19937 rng(12345);
  std::vector<uint32_t> keys(n), values(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = rng() & ((1u << KEY_BITS) - 1u);
    values[i] = (uint32_t)i;
  }
  uint32_t *k_in, *k_out, *v_in, *v_out;
  CHECK(cudaMalloc(&k_in, n * 4ull));
  CHECK(cudaMalloc(&k_out, n * 4ull));
  CHECK(cudaMalloc(&v_in, n * 4ull));
  CHECK(cudaMalloc(&v_out, n * 4ull));
  CHECK(cudaMemcpy(v_in, values.data(), n * 4ull, cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  void *temp = nullptr;
  auto sort = [&]() {
    CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k_in, k_out, v_in, v_out, n, 0,
                                          KEY_BITS));
  };
  sort(); // the temporary storage size
  CHECK(cudaMalloc(&temp, temp_bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (long ms_idle : idle) {
    std::vector<float> times;
    for (int r = 0; r < 12; ++r) {
      CHECK(cudaMemcpy(k_in, keys.data(), n * 4ull, cudaMemcpyHostToDevice));
      CHECK(cudaDeviceSynchronize());
      std::this_thread::sleep_for(std::chrono::milliseconds(ms_idle));
      CHECK(cudaEventRecord(start));
      sort();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (r >= 2) times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    printf("cub,%d,%d,1,8,%ld,%.4f\n", n, KEY_BITS, ms_idle, times[times.size() / 2]);
    fflush(stdout);
  }
  std::vector<uint32_t> out(n);
  CHECK(cudaMemcpy(out.data(), k_out, n * 4ull, cudaMemcpyDeviceToHost));
  std::sort(keys.begin(), keys.end());
  if (out != keys) {
    fprintf(stderr, "cub_idle: n = %d: wrong result\n", n);
    exit(1);
  }
  cudaFree(k_in);
  cudaFree(k_out);
  cudaFree(v_in);
  cudaFree(v_out);
  cudaFree(temp);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: cub_idle N[,N...] MS[,MS...]\n");
    return 2;
  }
  puts("impl,n,key_bits,pairs,radix_bits,idle_ms,ms_median");
  for (long n : parse_list(argv[1])) run((int)n, parse_list(argv[2]));
  return 0;
}
