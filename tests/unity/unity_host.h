// unity_host.h — a stand-in for the Unity player's side of the native plug-in API, written from
// Unity's documented interface (IUnityInterfaces, IUnityProfilerCallbacks): it hands out the
// profiler-callbacks interface by GUID, keeps at most 4 callbacks of each kind as Unity does, and
// lets a test fire "a new frame", "a thread registered", "a marker created" and a marker's events
// the way the player would. Create-marker callbacks are called for every existing marker when
// they register, as IUnityProfilerCallbacks.h says.
#pragma once

#include "../../runtime/unity/unity_plugin_api.h"

#include <cstdint>
#include <deque>
#include <string>
#include <tuple>
#include <vector>

namespace unity_host {

struct Host {
    IUnityInterfaces interfaces{};
    IUnityProfilerCallbacks callbacks{};
    std::vector<std::pair<IUnityProfilerFrameCallback, void *>> frame_callbacks;
    std::vector<std::pair<IUnityProfilerThreadCallback, void *>> thread_callbacks;
    std::vector<std::pair<IUnityProfilerCreateMarkerCallback, void *>> create_marker_callbacks;
    struct Marker {
        std::string name;
        UnityProfilerMarkerDesc desc{};
        std::vector<std::pair<IUnityProfilerMarkerEventCallback, void *>> event_callbacks;
    };
    std::deque<Marker> markers;  // descriptors stay put, as Unity's persistent ones do
    int interface_requests = 0;

    Host();
    void new_frame();                                      // RegisterFrameCallback listeners
    void register_thread(uint64_t thread_id, const char *name);  // RegisterCreateThreadCallback listeners
    const UnityProfilerMarkerDesc *create_marker(const char *name);  // RegisterCreateMarkerCallback listeners
    void emit(const UnityProfilerMarkerDesc *desc, UnityProfilerMarkerEventType type);  // its event listeners
    size_t marker_event_callbacks() const;  // over every marker
};

Host &instance();  // the callbacks are plain function pointers, so the host is a singleton

}  // namespace unity_host
