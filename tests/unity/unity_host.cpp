#include "unity_host.h"

#include <algorithm>

namespace unity_host {
namespace {

constexpr size_t kMaxCallbacks = 4;  // "Only up to 4 callbacks can be registered."

template <class Fn>
int add(std::vector<std::pair<Fn, void *>> &list, Fn fn, void *user) {
    if (fn == nullptr || list.size() >= kMaxCallbacks) return 1;
    list.emplace_back(fn, user);
    return 0;
}

template <class Fn>
int remove(std::vector<std::pair<Fn, void *>> &list, Fn fn, void *user) {
    auto it = std::find(list.begin(), list.end(), std::make_pair(fn, user));
    if (it == list.end()) return 1;
    list.erase(it);
    return 0;
}

IUnityInterface *UNITY_INTERFACE_API get_split(unsigned long long high, unsigned long long low) {
    Host &h = instance();
    ++h.interface_requests;
    bool v1 = high == kUnityProfilerCallbacksGUID.m_GUIDHigh && low == kUnityProfilerCallbacksGUID.m_GUIDLow;
    return v1 ? &h.callbacks : nullptr;
}
IUnityInterface *UNITY_INTERFACE_API get(UnityInterfaceGUID guid) { return get_split(guid.m_GUIDHigh, guid.m_GUIDLow); }

int UNITY_INTERFACE_API reg_frame(IUnityProfilerFrameCallback cb, void *u) { return add(instance().frame_callbacks, cb, u); }
int UNITY_INTERFACE_API unreg_frame(IUnityProfilerFrameCallback cb, void *u) { return remove(instance().frame_callbacks, cb, u); }
int UNITY_INTERFACE_API reg_thread(IUnityProfilerThreadCallback cb, void *u) { return add(instance().thread_callbacks, cb, u); }
int UNITY_INTERFACE_API unreg_thread(IUnityProfilerThreadCallback cb, void *u) { return remove(instance().thread_callbacks, cb, u); }

}  // namespace

Host::Host() {
    interfaces.GetInterface = &get;
    interfaces.GetInterfaceSplit = &get_split;
    callbacks.RegisterFrameCallback = &reg_frame;
    callbacks.UnregisterFrameCallback = &unreg_frame;
    callbacks.RegisterCreateThreadCallback = &reg_thread;
    callbacks.UnregisterCreateThreadCallback = &unreg_thread;
}

void Host::new_frame() {
    for (auto [fn, user] : frame_callbacks) fn(user);
}

void Host::register_thread(uint64_t thread_id, const char *name) {
    UnityProfilerThreadDesc desc{thread_id, "Job", name};
    for (auto [fn, user] : thread_callbacks) fn(&desc, user);
}

Host &instance() {
    static Host host;
    return host;
}

}  // namespace unity_host
