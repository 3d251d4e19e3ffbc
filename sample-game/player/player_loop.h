// player_loop.h — the native frames a Unity player runs before managed code: PlayerLoop walks a
// tree of systems, ScriptRunBehaviourUpdate asks the BehaviourManager to call each MonoBehaviour,
// which goes through ScriptingInvocation into GameAssembly; C# jobs go through the JobQueue and
// ManagedJobData. Here they are thin real frames, so captured stacks begin as a player's do.
#pragma once

#include <cstdint>

#include "game_library.h"

namespace mtsample {

struct PlayerLoop {
    static void Update(const GameLibrary &lib, uint64_t frame);      // Update phase
    static void LateUpdate(const GameLibrary &lib, uint64_t frame);  // PreLateUpdate phase
};

struct JobQueue {
    static void Exec(const GameLibrary &lib, uint64_t frame, uint32_t job);  // a worker runs one job
};

}  // namespace mtsample
