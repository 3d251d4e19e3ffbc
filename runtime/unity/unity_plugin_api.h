// unity_plugin_api.h — the subset of Unity's native plug-in API that MemTracer uses, declared
// from Unity's documented PluginAPI headers (IUnityInterface.h, IUnityProfilerCallbacks.h) so the
// plug-in builds where no Unity install exists. Layouts, GUIDs and calling conventions match the
// real headers member for member; a build with -DMEMTRACER_UNITY_PLUGIN_API=<Unity>/Editor/Data/
// PluginAPI compiles against the real headers instead and never sees this file.
#ifndef MEMTRACER_UNITY_PLUGIN_API_H
#define MEMTRACER_UNITY_PLUGIN_API_H

#include <stdint.h>

#if defined(_WIN32)
#define UNITY_INTERFACE_API __stdcall
#define UNITY_INTERFACE_EXPORT __declspec(dllexport)
#else
#define UNITY_INTERFACE_API
#define UNITY_INTERFACE_EXPORT __attribute__((visibility("default")))
#endif

extern "C" {

struct UnityInterfaceGUID {
    unsigned long long m_GUIDHigh;
    unsigned long long m_GUIDLow;
};

struct IUnityInterface {};

struct IUnityInterfaces {
    IUnityInterface *(UNITY_INTERFACE_API *GetInterface)(UnityInterfaceGUID guid);
    void(UNITY_INTERFACE_API *RegisterInterface)(UnityInterfaceGUID guid, IUnityInterface *ptr);
    IUnityInterface *(UNITY_INTERFACE_API *GetInterfaceSplit)(unsigned long long guidHigh, unsigned long long guidLow);
    void(UNITY_INTERFACE_API *RegisterInterfaceSplit)(unsigned long long guidHigh, unsigned long long guidLow,
                                                      IUnityInterface *ptr);
};

typedef uint64_t UnityProfilerThreadId;

struct UnityProfilerThreadDesc {
    UnityProfilerThreadId threadId;  // the thread's pthread_t, c-casted to uint64_t
    const char *groupName;
    const char *name;
};

// IUnityProfiler.h: what a marker is and how its events arrive.
typedef uint32_t UnityProfilerMarkerId;
typedef uint16_t UnityProfilerMarkerFlags;
typedef uint16_t UnityProfilerCategoryId;
typedef uint16_t UnityProfilerMarkerEventType;
enum UnityProfilerMarkerEventType_ {
    kUnityProfilerMarkerEventTypeBegin = 0,
    kUnityProfilerMarkerEventTypeEnd = 1,
    kUnityProfilerMarkerEventTypeSingle = 2
};

struct UnityProfilerMarkerDesc {
    const void *callback;  // Unity's per-marker callback chain; not ours to read
    UnityProfilerMarkerId id;
    UnityProfilerMarkerFlags flags;
    UnityProfilerCategoryId categoryId;
    const char *name;  // NUL-terminated, lives as long as the marker (the player's lifetime)
    const void *metaDataDesc;
};

struct UnityProfilerMarkerData {
    uint8_t type;
    uint8_t reserved0;
    uint16_t reserved1;
    uint32_t size;
    const void *ptr;
};

typedef void(UNITY_INTERFACE_API *IUnityProfilerCreateMarkerCallback)(const UnityProfilerMarkerDesc *markerDesc,
                                                                      void *userData);
typedef void(UNITY_INTERFACE_API *IUnityProfilerMarkerEventCallback)(const UnityProfilerMarkerDesc *markerDesc,
                                                                     UnityProfilerMarkerEventType eventType,
                                                                     uint16_t eventDataCount,
                                                                     const UnityProfilerMarkerData *eventData,
                                                                     void *userData);
typedef void(UNITY_INTERFACE_API *IUnityProfilerFrameCallback)(void *userData);
typedef void(UNITY_INTERFACE_API *IUnityProfilerThreadCallback)(const UnityProfilerThreadDesc *threadDesc, void *userData);

// Only the members MemTracer calls are typed; the others keep their slot as opaque pointers so
// the offsets of the typed ones are those of the real struct.
struct IUnityProfilerCallbacks : IUnityInterface {
    void *RegisterCreateCategoryCallback;
    void *UnregisterCreateCategoryCallback;
    // "Also is called for all existing markers when the callback is registered."
    int(UNITY_INTERFACE_API *RegisterCreateMarkerCallback)(IUnityProfilerCreateMarkerCallback callback, void *userData);
    int(UNITY_INTERFACE_API *UnregisterCreateMarkerCallback)(IUnityProfilerCreateMarkerCallback callback,
                                                             void *userData);
    int(UNITY_INTERFACE_API *RegisterMarkerEventCallback)(const UnityProfilerMarkerDesc *markerDesc,
                                                          IUnityProfilerMarkerEventCallback callback, void *userData);
    // markerDesc NULL: the callback is removed from every marker it was registered on.
    int(UNITY_INTERFACE_API *UnregisterMarkerEventCallback)(const UnityProfilerMarkerDesc *markerDesc,
                                                            IUnityProfilerMarkerEventCallback callback, void *userData);
    int(UNITY_INTERFACE_API *RegisterFrameCallback)(IUnityProfilerFrameCallback callback, void *userData);
    int(UNITY_INTERFACE_API *UnregisterFrameCallback)(IUnityProfilerFrameCallback callback, void *userData);
    int(UNITY_INTERFACE_API *RegisterCreateThreadCallback)(IUnityProfilerThreadCallback callback, void *userData);
    int(UNITY_INTERFACE_API *UnregisterCreateThreadCallback)(IUnityProfilerThreadCallback callback, void *userData);
};

}  // extern "C"

// Interface GUIDs, as registered by Unity (2018.2+ for V1, 2019.1+ for V2). V2 extends V1 with
// flow events after the members above, so both share the prefix MemTracer uses.
constexpr UnityInterfaceGUID kUnityProfilerCallbacksGUID{0x572FDB38CE3C4B1FULL, 0xA6071A9A7C4F52D8ULL};
constexpr UnityInterfaceGUID kUnityProfilerCallbacksV2GUID{0x5DEB59E88F2D4571ULL, 0x81E8583069A5E33CULL};

#endif  // MEMTRACER_UNITY_PLUGIN_API_H
