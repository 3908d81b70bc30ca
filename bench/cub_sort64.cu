// CUB's DeviceRadixSort on 64-bit keys (63-bit Morton codes' width) with
// uint32 values: the reference for glradix's uint64 rows. The shared
// reference program (../shared/gpu/cub_sort_bench.cu) has only 32-bit keys.
// Same method and CSV columns as that program and `glradix-bench --csv`:
//   impl,n,key_bits,pairs,radix_bits,ms_median,mkeys_per_s,verified
// Build and run on the GPU machine (bench/gpu_report.sh does):
//   nvcc -O3 -arch=sm_90 -o cub_sort64 bench/cub_sort64.cu && ./cub_sort64 N,N,...
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

static void check(cudaError_t e, int line) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "cub_sort64: CUDA error %s at line %d\n", cudaGetErrorString(e), line);
  exit(1);
}
#define CHECK(x) check((x), __LINE__)

static void run_pairs(int n, int key_bits) {
  std::mt19937_64 rng(12345);
  const uint64_t mask = key_bits >= 64 ? ~0ull : (1ull << key_bits) - 1ull;
  std::vector<uint64_t> keys(n);
  std::vector<uint32_t> values(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = rng() & mask;
    values[i] = (uint32_t)i;
  }
  uint64_t *k_in, *k_out;
  uint32_t *v_in, *v_out;
  CHECK(cudaMalloc(&k_in, n * 8ull));
  CHECK(cudaMalloc(&k_out, n * 8ull));
  CHECK(cudaMalloc(&v_in, n * 4ull));
  CHECK(cudaMalloc(&v_out, n * 4ull));
  CHECK(cudaMemcpy(v_in, values.data(), n * 4ull, cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  void *temp = nullptr;
  auto sort = [&]() {
    CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k_in, k_out, v_in, v_out, n, 0,
                                          key_bits));
  };
  sort(); // the temporary storage size
  CHECK(cudaMalloc(&temp, temp_bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < 12; ++r) { // 2 warm-ups, then 10 timed
    CHECK(cudaMemcpy(k_in, keys.data(), n * 8ull, cudaMemcpyHostToDevice));
    CHECK(cudaEventRecord(start));
    sort();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 2) times.push_back(ms);
  }
  // Verified against a stable CPU sort of (key, index) pairs.
  std::vector<uint64_t> out_k(n);
  std::vector<uint32_t> out_v(n), order(n);
  CHECK(cudaMemcpy(out_k.data(), k_out, n * 8ull, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out_v.data(), v_out, n * 4ull, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) order[i] = (uint32_t)i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  bool ok = true;
  for (int i = 0; i < n && ok; ++i) ok = out_v[i] == order[i] && out_k[i] == keys[order[i]];
  std::sort(times.begin(), times.end());
  const float med = times[times.size() / 2];
  printf("cub-uint64,%d,%d,1,8,%.4f,%.1f,%s\n", n, key_bits, med, n / med / 1e3,
         ok ? "yes" : "NO");
  cudaFree(temp);
  cudaFree(k_in);
  cudaFree(k_out);
  cudaFree(v_in);
  cudaFree(v_out);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

int main(int argc, char **argv) {
  // Usage: cub_sort64 [N,N,...]   (default 65536..67108864, powers of 4)
  std::vector<int> sizes = {1 << 16, 1 << 20, 1 << 22, 1 << 24, 1 << 26};
  if (argc > 1) {
    sizes.clear();
    for (char *s = strtok(argv[1], ","); s; s = strtok(nullptr, ",")) sizes.push_back(atoi(s));
  }
  printf("impl,n,key_bits,pairs,radix_bits,ms_median,mkeys_per_s,verified\n");
  for (int n : sizes) run_pairs(n, 63);
  return 0;
}
