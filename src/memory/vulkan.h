/* The part of Vulkan the library uses to allocate memory that GL imports,
 * declared here rather than taken from <vulkan/vulkan.h>: the Vulkan loader
 * is opened at run time and is no build requirement. Layouts follow the
 * Vulkan 1.1 headers; non-dispatchable handles are 64-bit on every ABI. */
#ifndef GLRADIX_MEMORY_VULKAN_H
#define GLRADIX_MEMORY_VULKAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct _glradix_vk_api _glradix_vk_api; /* vulkan.c: the loaded entry points */

/* An open Vulkan device whose UUIDs match the GL context's. */
typedef struct _glradix_vk {
  void *library;       /* the loader, dlopen'ed */
  _glradix_vk_api *api;
  void *instance, *device;
  uint32_t memory_types; /* device-local memory types, a bit each */
  uint64_t heap_bytes;   /* the largest device-local heap */
} _glradix_vk;

/* One exported allocation: a dedicated buffer and its memory. */
typedef struct _glradix_vk_memory {
  uint64_t buffer, memory;
  uint64_t bytes; /* the allocation's size, as GL's import needs it */
} _glradix_vk_memory;

/* Opens the loader (`library`: its file name), an instance and the device
 * whose device and driver UUIDs equal these. False with a reason in `why`
 * (a sentence without a full stop) when any of it is missing. */
bool _glradix_vk_open(_glradix_vk *vk, const char *library, const uint8_t device_uuid[16],
                      const uint8_t driver_uuid[16], char *why, size_t why_size);
void _glradix_vk_close(_glradix_vk *vk);

/* Device-local memory of at least `bytes`, exported as an opaque file
 * descriptor (*fd, which the importer then owns). */
bool _glradix_vk_allocate(_glradix_vk *vk, uint64_t bytes, _glradix_vk_memory *m, int *fd);
void _glradix_vk_free(_glradix_vk *vk, _glradix_vk_memory *m);

#endif /* GLRADIX_MEMORY_VULKAN_H */
