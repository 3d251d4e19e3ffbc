// unity_host.h — a stand-in for the Unity player's side of the native plug-in API, written from
// Unity's documented interface (IUnityInterfaces, IUnityProfilerCallbacks): it hands out the
// profiler-callbacks interface by GUID, keeps at most 4 callbacks of each kind as Unity does, and
// lets a test fire "a new frame" and "a thread registered" the way the player would.
#pragma once

#include "../../runtime/unity/unity_plugin_api.h"

#include <cstdint>
#include <string>
#include <vector>

namespace unity_host {

struct Host {
    IUnityInterfaces interfaces{};
    IUnityProfilerCallbacks callbacks{};
    std::vector<std::pair<IUnityProfilerFrameCallback, void *>> frame_callbacks;
    std::vector<std::pair<IUnityProfilerThreadCallback, void *>> thread_callbacks;
    int interface_requests = 0;

    Host();
    void new_frame();                                      // RegisterFrameCallback listeners
    void register_thread(uint64_t thread_id, const char *name);  // RegisterCreateThreadCallback listeners
};

Host &instance();  // the callbacks are plain function pointers, so the host is a singleton

}  // namespace unity_host
