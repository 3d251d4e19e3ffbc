// gc/gc_wrapper.h — how libil2cpp includes Boehm GC: threads and gcj support on, and the "no
// descriptor" value that sends an object to the conservative GC_MALLOC path.
#pragma once

#include "il2cpp-config.h"

#if IL2CPP_GC_BOEHM
#ifndef GC_THREADS
#define GC_THREADS 1
#endif
#if IL2CPP_HAS_GC_DESCRIPTORS
#define GC_GCJ_SUPPORT 1
#endif
#include <gc/gc.h>
#include <gc/gc_typed.h>
#include <gc/gc_mark.h>
#include <gc/gc_gcj.h>
#include "gc/gc_vector.h"

#define GC_NO_DESCRIPTOR ((void*)(0 | GC_DS_LENGTH))
#else
#define GC_NO_DESCRIPTOR ((void*)0)
#endif
