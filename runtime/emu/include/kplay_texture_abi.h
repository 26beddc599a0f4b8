/* kplay_texture_abi.h: what a texture or surface object is on the emulated device, and to a host
 * reference's sampling helper (reference/kplay_texture.h).
 *
 * On the emulated device a cudaTextureObject_t or cudaSurfaceObject_t is the address of one of these,
 * filled in by kplay's runtime (device/emulated_device.cpp) from a kplay-texture or kplay-surface line
 * and pointing straight into the task's buffer: tex2D and surf2Dwrite (kplay_emu_texture.h) read and
 * write the buffer itself, so what a kernel writes through a surface is what kplay checks. Plain C so
 * both sides read the same layout. */
#ifndef KPLAY_TEXTURE_ABI_H
#define KPLAY_TEXTURE_ABI_H

#define KPLAY_IMAGE_MAGIC 0x6b74786fu /* a handle that does not point at one of these is told apart */

/* The components' type, as the buffer holds them. */
enum kplay_image_format {
    KPLAY_IMAGE_U8 = 0,
    KPLAY_IMAGE_I8 = 1,
    KPLAY_IMAGE_U32 = 2,
    KPLAY_IMAGE_I32 = 3,
    KPLAY_IMAGE_F16 = 4,
    KPLAY_IMAGE_F32 = 5
};
enum kplay_image_filter { KPLAY_FILTER_POINT = 0, KPLAY_FILTER_LINEAR = 1 };
enum kplay_image_address { KPLAY_ADDRESS_CLAMP = 0, KPLAY_ADDRESS_WRAP = 1, KPLAY_ADDRESS_MIRROR = 2, KPLAY_ADDRESS_BORDER = 3 };

struct kplay_image {
    unsigned magic;
    int surface;         /* 1: a surface object, 0: a texture object */
    int format;          /* kplay_image_format */
    int channels;        /* components per element: 1, 2 or 4 */
    int dims;            /* 1, 2 or 3 */
    int layered;         /* 1: `layers` slices of a 1D or 2D image */
    int in_array;        /* a texture in a CUDA array (tex1D); 0: 1D linear memory (tex1Dfetch) or pitched 2D */
    int filter;          /* kplay_image_filter */
    int address;         /* kplay_image_address, for every dimension */
    int normalized;      /* coordinates in [0,1) */
    int read_normalized; /* 8-bit integers read as floats in [0,1] or [-1,1] */
    long long width, height, depth, layers; /* 1 where the image has fewer dimensions; layers 1 when not layered */
    unsigned char* data;                    /* element (x, y, z) of layer l at ((l*depth + z)*height + y)*width + x */
    char name[64];                          /* the kernel argument's name, for messages */
};

#endif
