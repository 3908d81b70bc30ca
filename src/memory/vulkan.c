/* Vulkan, opened at run time, for one thing: device-local memory exported
 * as opaque file descriptors, which GL imports (imported.c). Below
 * imported.c, which alone calls it; it knows nothing of GL. */
#include "memory/vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#define HAVE_FD 1
/* The loader stays mapped once opened: its drivers keep what they
 * allocated past vkDestroyInstance, and a leak checker can then name them. */
#ifdef RTLD_NODELETE
#define NODELETE RTLD_NODELETE
#else
#define NODELETE 0
#endif
#else
#define HAVE_FD 0
#endif

typedef int32_t VkResult;
typedef uint32_t VkFlags;
typedef uint64_t VkDeviceSize;
typedef void (*PFN_vkVoidFunction)(void);

enum {
  VK_SUCCESS = 0,
  VK_INCOMPLETE = 5,
  S_APPLICATION_INFO = 0,
  S_INSTANCE_CREATE_INFO = 1,
  S_DEVICE_QUEUE_CREATE_INFO = 2,
  S_DEVICE_CREATE_INFO = 3,
  S_MEMORY_ALLOCATE_INFO = 5,
  S_BUFFER_CREATE_INFO = 12,
  S_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001,
  S_PHYSICAL_DEVICE_ID_PROPERTIES = 1000071004,
  S_EXTERNAL_MEMORY_BUFFER_CREATE_INFO = 1000072000,
  S_EXPORT_MEMORY_ALLOCATE_INFO = 1000072002,
  S_MEMORY_GET_FD_INFO_KHR = 1000074002,
  S_MEMORY_DEDICATED_ALLOCATE_INFO = 1000127001,
  HANDLE_OPAQUE_FD = 0x1,
  MEMORY_DEVICE_LOCAL = 0x1,
  /* Every use a GL buffer may see: copies, storage, uniforms, vertices,
   * indices, indirect commands. */
  BUFFER_USAGE = 0x1 | 0x2 | 0x10 | 0x20 | 0x40 | 0x80 | 0x100
};
#define VK_API_1_1 ((1u << 22) | (1u << 12))

typedef struct { uint32_t s; const void *next; const char *app; uint32_t app_version;
                 const char *engine; uint32_t engine_version; uint32_t api; } VkApplicationInfo;
typedef struct { uint32_t s; const void *next; VkFlags flags; const VkApplicationInfo *app;
                 uint32_t layers; const char *const *layer_names;
                 uint32_t extensions; const char *const *extension_names; } VkInstanceCreateInfo;
/* VkPhysicalDeviceProperties: its head, then room for the rest (824 bytes
 * on 64-bit ABIs). */
typedef struct { uint32_t s; void *next;
                 union { struct { uint32_t api, driver, vendor, device, type; char name[256]; } head;
                         uint64_t room[160]; } p; } VkPhysicalDeviceProperties2;
typedef struct { uint32_t s; void *next; uint8_t device_uuid[16], driver_uuid[16], luid[8];
                 uint32_t node_mask, luid_valid; } VkPhysicalDeviceIDProperties;
typedef struct { VkFlags flags; uint32_t heap; } VkMemoryType;
typedef struct { VkDeviceSize size; VkFlags flags; } VkMemoryHeap;
typedef struct { uint32_t type_count; VkMemoryType types[32];
                 uint32_t heap_count; VkMemoryHeap heaps[16]; } VkPhysicalDeviceMemoryProperties;
typedef struct { char name[256]; uint32_t spec_version; } VkExtensionProperties;
typedef struct { uint32_t s; const void *next; VkFlags flags; uint32_t family, count;
                 const float *priorities; } VkDeviceQueueCreateInfo;
typedef struct { uint32_t s; const void *next; VkFlags flags; uint32_t queue_infos;
                 const VkDeviceQueueCreateInfo *queues; uint32_t layers;
                 const char *const *layer_names; uint32_t extensions;
                 const char *const *extension_names; const void *features; } VkDeviceCreateInfo;
typedef struct { uint32_t s; const void *next; VkFlags handle_types; } VkExternalInfo;
typedef struct { uint32_t s; const void *next; VkFlags flags; VkDeviceSize size; VkFlags usage;
                 uint32_t sharing, family_count; const uint32_t *families; } VkBufferCreateInfo;
typedef struct { VkDeviceSize size, alignment; uint32_t type_bits; } VkMemoryRequirements;
typedef struct { uint32_t s; const void *next; uint64_t image, buffer; } VkMemoryDedicatedAllocateInfo;
typedef struct { uint32_t s; const void *next; VkDeviceSize size; uint32_t type; } VkMemoryAllocateInfo;
typedef struct { uint32_t s; const void *next; uint64_t memory; VkFlags handle_type; } VkMemoryGetFdInfoKHR;

typedef void *VkInstance, *VkPhysicalDevice, *VkDevice;

struct _glradix_vk_api {
  PFN_vkVoidFunction (*GetInstanceProcAddr)(VkInstance, const char *);
  VkResult (*EnumerateInstanceVersion)(uint32_t *);
  VkResult (*CreateInstance)(const VkInstanceCreateInfo *, const void *, VkInstance *);
  void (*DestroyInstance)(VkInstance, const void *);
  VkResult (*EnumeratePhysicalDevices)(VkInstance, uint32_t *, VkPhysicalDevice *);
  void (*GetPhysicalDeviceProperties2)(VkPhysicalDevice, VkPhysicalDeviceProperties2 *);
  void (*GetPhysicalDeviceMemoryProperties)(VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *);
  VkResult (*EnumerateDeviceExtensionProperties)(VkPhysicalDevice, const char *, uint32_t *,
                                                 VkExtensionProperties *);
  VkResult (*CreateDevice)(VkPhysicalDevice, const VkDeviceCreateInfo *, const void *, VkDevice *);
  PFN_vkVoidFunction (*GetDeviceProcAddr)(VkDevice, const char *);
  void (*DestroyDevice)(VkDevice, const void *);
  VkResult (*CreateBuffer)(VkDevice, const VkBufferCreateInfo *, const void *, uint64_t *);
  void (*DestroyBuffer)(VkDevice, uint64_t, const void *);
  void (*GetBufferMemoryRequirements)(VkDevice, uint64_t, VkMemoryRequirements *);
  VkResult (*AllocateMemory)(VkDevice, const VkMemoryAllocateInfo *, const void *, uint64_t *);
  void (*FreeMemory)(VkDevice, uint64_t, const void *);
  VkResult (*BindBufferMemory)(VkDevice, uint64_t, uint64_t, VkDeviceSize);
  VkResult (*GetMemoryFdKHR)(VkDevice, const VkMemoryGetFdInfoKHR *, int *);
};

/* Function pointers from a loader's void (*)(void): through memcpy, as ISO
 * C has no cast between function pointer types it would warn about. */
#define LOAD(dst, f) do { PFN_vkVoidFunction f_ = (f); memcpy(&(dst), &f_, sizeof f_); } while (0)

/* The entry points an instance or a device gives, by name and place in
 * the api struct. */
typedef struct entry { const char *name; size_t offset; } entry;
#define ENTRY(f) {"vk" #f, offsetof(struct _glradix_vk_api, f)}
static const entry INSTANCE_ENTRIES[] = {
    ENTRY(DestroyInstance), ENTRY(EnumeratePhysicalDevices), ENTRY(GetPhysicalDeviceProperties2),
    ENTRY(GetPhysicalDeviceMemoryProperties), ENTRY(EnumerateDeviceExtensionProperties),
    ENTRY(CreateDevice), ENTRY(GetDeviceProcAddr)};
static const entry DEVICE_ENTRIES[] = {
    ENTRY(DestroyDevice), ENTRY(CreateBuffer), ENTRY(DestroyBuffer),
    ENTRY(GetBufferMemoryRequirements), ENTRY(AllocateMemory), ENTRY(FreeMemory),
    ENTRY(BindBufferMemory), ENTRY(GetMemoryFdKHR)};

/* Loads `n` entries through `get` (vkGetInstanceProcAddr or
 * vkGetDeviceProcAddr) on `handle`; false if one is missing. */
static bool load_entries(_glradix_vk_api *a, PFN_vkVoidFunction (*get)(void *, const char *),
                         void *handle, const entry *e, size_t n) {
  bool all = true;
  for (size_t i = 0; i < n; i++) {
    PFN_vkVoidFunction f = get(handle, e[i].name);
    memcpy((char *)a + e[i].offset, &f, sizeof f);
    all = all && f != NULL;
  }
  return all;
}

static bool fail(char *why, size_t size, const char *reason) {
  snprintf(why, size, "%s", reason);
  return false;
}

static bool has_extension(_glradix_vk_api *a, VkPhysicalDevice pd, const char *name) {
  uint32_t n = 0;
  if (a->EnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0) return false;
  VkExtensionProperties *e = calloc(n, sizeof *e);
  bool found = false;
  if (e && a->EnumerateDeviceExtensionProperties(pd, NULL, &n, e) >= VK_SUCCESS)
    for (uint32_t i = 0; i < n && !found; i++) found = strcmp(e[i].name, name) == 0;
  free(e);
  return found;
}

/* The physical device whose UUIDs are these, or NULL. */
static VkPhysicalDevice find_device(_glradix_vk *vk, const uint8_t device_uuid[16],
                                    const uint8_t driver_uuid[16]) {
  _glradix_vk_api *a = vk->api;
  VkPhysicalDevice found = NULL, list[16];
  uint32_t n = 16;
  VkResult r = a->EnumeratePhysicalDevices(vk->instance, &n, list);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) return NULL;
  for (uint32_t i = 0; i < n && !found; i++) {
    VkPhysicalDeviceIDProperties id = {S_PHYSICAL_DEVICE_ID_PROPERTIES, NULL, {0}, {0}, {0}, 0, 0};
    VkPhysicalDeviceProperties2 p;
    memset(&p, 0, sizeof p);
    p.s = S_PHYSICAL_DEVICE_PROPERTIES_2;
    p.next = &id;
    a->GetPhysicalDeviceProperties2(list[i], &p);
    if (p.p.head.api >= VK_API_1_1 && memcmp(id.device_uuid, device_uuid, 16) == 0 &&
        memcmp(id.driver_uuid, driver_uuid, 16) == 0)
      found = list[i];
  }
  return found;
}

static bool open_instance(_glradix_vk *vk, const char *library, char *why, size_t size) {
#if HAVE_FD
  vk->library = dlopen(library, RTLD_NOW | RTLD_LOCAL | NODELETE);
  if (!vk->library) return fail(why, size, "no Vulkan loader");
  vk->api = calloc(1, sizeof *vk->api);
  if (!vk->api) return fail(why, size, "out of memory");
  _glradix_vk_api *a = vk->api;
  void *sym = dlsym(vk->library, "vkGetInstanceProcAddr");
  memcpy(&a->GetInstanceProcAddr, &sym, sizeof sym);
  if (!a->GetInstanceProcAddr) return fail(why, size, "no vkGetInstanceProcAddr in the Vulkan loader");
  LOAD(a->EnumerateInstanceVersion, a->GetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion"));
  LOAD(a->CreateInstance, a->GetInstanceProcAddr(NULL, "vkCreateInstance"));
  uint32_t version = 0;
  if (!a->EnumerateInstanceVersion || a->EnumerateInstanceVersion(&version) != VK_SUCCESS ||
      version < VK_API_1_1 || !a->CreateInstance)
    return fail(why, size, "a Vulkan loader below 1.1");
  VkApplicationInfo app = {S_APPLICATION_INFO, NULL, "glradix", 0, "glradix", 0, VK_API_1_1};
  VkInstanceCreateInfo ci = {S_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
  if (a->CreateInstance(&ci, NULL, &vk->instance) != VK_SUCCESS) {
    vk->instance = NULL;
    return fail(why, size, "vkCreateInstance failed");
  }
  if (!load_entries(a, a->GetInstanceProcAddr, vk->instance, INSTANCE_ENTRIES,
                    sizeof INSTANCE_ENTRIES / sizeof INSTANCE_ENTRIES[0]))
    return fail(why, size, "a Vulkan instance without 1.1's entry points");
  return true;
#else
  (void)vk;
  (void)library;
  return fail(why, size, "no file descriptors to share memory through on this platform");
#endif
}

static bool open_device(_glradix_vk *vk, VkPhysicalDevice pd, char *why, size_t size) {
  _glradix_vk_api *a = vk->api;
  const char *ext = "VK_KHR_external_memory_fd";
  if (!has_extension(a, pd, ext)) return fail(why, size, "no VK_KHR_external_memory_fd");
  VkPhysicalDeviceMemoryProperties mp;
  memset(&mp, 0, sizeof mp);
  a->GetPhysicalDeviceMemoryProperties(pd, &mp);
  for (uint32_t i = 0; i < mp.type_count && i < 32; i++)
    if (mp.types[i].flags & MEMORY_DEVICE_LOCAL) {
      vk->memory_types |= 1u << i;
      const uint64_t heap = mp.types[i].heap < 16 ? mp.heaps[mp.types[i].heap].size : 0;
      if (heap > vk->heap_bytes) vk->heap_bytes = heap;
    }
  if (!vk->memory_types) return fail(why, size, "no device-local Vulkan memory");
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo q = {S_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &priority};
  VkDeviceCreateInfo ci = {S_DEVICE_CREATE_INFO, NULL, 0, 1, &q, 0, NULL, 1, &ext, NULL};
  if (a->CreateDevice(pd, &ci, NULL, &vk->device) != VK_SUCCESS) {
    vk->device = NULL;
    return fail(why, size, "vkCreateDevice failed");
  }
  if (!load_entries(a, a->GetDeviceProcAddr, vk->device, DEVICE_ENTRIES,
                    sizeof DEVICE_ENTRIES / sizeof DEVICE_ENTRIES[0]))
    return fail(why, size, "a Vulkan device without vkGetMemoryFdKHR");
  return true;
}

bool _glradix_vk_open(_glradix_vk *vk, const char *library, const uint8_t device_uuid[16],
                      const uint8_t driver_uuid[16], char *why, size_t why_size) {
  memset(vk, 0, sizeof *vk);
  bool ok = open_instance(vk, library, why, why_size);
  VkPhysicalDevice pd = ok ? find_device(vk, device_uuid, driver_uuid) : NULL;
  if (ok && !pd) ok = fail(why, why_size, "no Vulkan 1.1 device with the GL context's UUIDs");
  if (ok) ok = open_device(vk, pd, why, why_size);
  if (!ok) _glradix_vk_close(vk);
  return ok;
}

void _glradix_vk_close(_glradix_vk *vk) {
#if HAVE_FD
  _glradix_vk_api *a = vk->api;
  if (vk->device && a->DestroyDevice) a->DestroyDevice(vk->device, NULL);
  if (vk->instance && a->DestroyInstance) a->DestroyInstance(vk->instance, NULL);
  free(a);
  if (vk->library) dlclose(vk->library);
#endif
  memset(vk, 0, sizeof *vk);
}

bool _glradix_vk_allocate(_glradix_vk *vk, uint64_t bytes, _glradix_vk_memory *m, int *fd) {
  _glradix_vk_api *a = vk->api;
  memset(m, 0, sizeof *m);
  *fd = -1;
  VkExternalInfo external = {S_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, NULL, HANDLE_OPAQUE_FD};
  VkBufferCreateInfo bi = {S_BUFFER_CREATE_INFO, &external, 0, bytes, BUFFER_USAGE, 0, 0, NULL};
  if (a->CreateBuffer(vk->device, &bi, NULL, &m->buffer) != VK_SUCCESS) {
    m->buffer = 0;
    return false;
  }
  VkMemoryRequirements req;
  a->GetBufferMemoryRequirements(vk->device, m->buffer, &req);
  uint32_t types = req.type_bits & vk->memory_types, type = 0;
  while (types && !(types & (1u << type))) type++;
  VkMemoryDedicatedAllocateInfo dedicated = {S_MEMORY_DEDICATED_ALLOCATE_INFO, NULL, 0, m->buffer};
  VkExternalInfo exported = {S_EXPORT_MEMORY_ALLOCATE_INFO, &dedicated, HANDLE_OPAQUE_FD};
  VkMemoryAllocateInfo ai = {S_MEMORY_ALLOCATE_INFO, &exported, req.size, type};
  VkMemoryGetFdInfoKHR fi = {S_MEMORY_GET_FD_INFO_KHR, NULL, 0, HANDLE_OPAQUE_FD};
  bool ok = types != 0 && a->AllocateMemory(vk->device, &ai, NULL, &m->memory) == VK_SUCCESS;
  if (!ok) m->memory = 0;
  fi.memory = m->memory;
  ok = ok && a->BindBufferMemory(vk->device, m->buffer, m->memory, 0) == VK_SUCCESS &&
       a->GetMemoryFdKHR(vk->device, &fi, fd) == VK_SUCCESS;
  if (!ok) {
    _glradix_vk_free(vk, m);
    *fd = -1;
    return false;
  }
  m->bytes = req.size;
  return true;
}

void _glradix_vk_free(_glradix_vk *vk, _glradix_vk_memory *m) {
  if (m->buffer) vk->api->DestroyBuffer(vk->device, m->buffer, NULL);
  if (m->memory) vk->api->FreeMemory(vk->device, m->memory, NULL);
  memset(m, 0, sizeof *m);
}
