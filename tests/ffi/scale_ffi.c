/* A tiny XLA FFI handler written against XLA's C API only (the header
 * ships with jaxlib: jaxtyped.ffi.include_dir()), so the system C compiler
 * builds it: out = factor * x + offset, elementwise over float32 buffers
 * of any shape (x may have fewer elements than out: it then repeats, which
 * is how an "expand_dims" vmap broadcasts an unbatched operand). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xla/ffi/api/c_api.h"

static int64_t element_count(const XLA_FFI_Buffer* b) {
  int64_t n = 1;
  for (int64_t i = 0; i < b->rank; ++i) n *= b->dims[i];
  return n;
}

/* The attribute called `name`, or NULL. */
static void* attribute(const XLA_FFI_Attrs* attrs, const char* name) {
  for (int64_t i = 0; i < attrs->size; ++i) {
    const XLA_FFI_ByteSpan* span = attrs->names[i];
    if (span->len == strlen(name) && memcmp(span->ptr, name, span->len) == 0) return attrs->attrs[i];
  }
  return NULL;
}

XLA_FFI_Error* scale_add_f32(XLA_FFI_CallFrame* frame) {
  if (frame->extension_start != NULL && frame->extension_start->type == XLA_FFI_Extension_Metadata) {
    XLA_FFI_Metadata_Extension* ext = (XLA_FFI_Metadata_Extension*)frame->extension_start;
    ext->metadata->api_version.struct_size = XLA_FFI_Api_Version_STRUCT_SIZE;
    ext->metadata->api_version.extension_start = NULL;
    ext->metadata->api_version.major_version = XLA_FFI_API_MAJOR;
    ext->metadata->api_version.minor_version = XLA_FFI_API_MINOR;
    ext->metadata->traits = 0;
    return NULL;
  }
  if (frame->stage != XLA_FFI_ExecutionStage_EXECUTE) return NULL;
  const XLA_FFI_Buffer* x = (const XLA_FFI_Buffer*)frame->args.args[0];
  XLA_FFI_Buffer* out = (XLA_FFI_Buffer*)frame->rets.rets[0];
  const XLA_FFI_Scalar* factor = (const XLA_FFI_Scalar*)attribute(&frame->attrs, "factor");
  const XLA_FFI_Scalar* offset = (const XLA_FFI_Scalar*)attribute(&frame->attrs, "offset");
  double f = factor != NULL ? *(const double*)factor->value : 1.0;
  int64_t k = offset != NULL ? *(const int64_t*)offset->value : 0;
  const float* in = (const float*)x->data;
  float* dst = (float*)out->data;
  int64_t n = element_count(out), m = element_count(x);
  for (int64_t i = 0; i < n; ++i) dst[i] = (float)(f * in[i % m] + (double)k);
  return NULL;
}
