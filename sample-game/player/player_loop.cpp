// player_loop.cpp — see player_loop.h. Every function is noinline (and the player is built without
// sibling calls) so each is one frame, as in a player's own stacks.
#include "player_loop.h"

#define MT_NATIVE __attribute__((noinline))

namespace mtsample {

namespace {

enum class Phase { Update, PreLateUpdate };

struct ScriptingInvocation {
    MT_NATIVE static void Invoke(void (*method)(uint64_t), uint64_t frame) { method(frame); }
    MT_NATIVE static void InvokeJob(void (*method)(uint64_t, uint32_t), uint64_t frame, uint32_t job) {
        method(frame, job);
    }
};

struct MonoBehaviour {
    MT_NATIVE static void CallUpdateMethod(const GameLibrary &lib, Phase phase, uint64_t frame) {
        ScriptingInvocation::Invoke(phase == Phase::Update ? lib.update : lib.late_update, frame);
    }
};

struct BehaviourManager {
    MT_NATIVE static void Update(const GameLibrary &lib, Phase phase, uint64_t frame) {
        MonoBehaviour::CallUpdateMethod(lib, phase, frame);
    }
};

MT_NATIVE void ScriptRunBehaviourUpdate(const GameLibrary &lib, Phase phase, uint64_t frame) {
    BehaviourManager::Update(lib, phase, frame);
}

// The loop is a tree: root -> phase group -> script system. Walked recursively, like Unity's.
MT_NATIVE void ExecutePlayerLoop(const GameLibrary &lib, Phase phase, uint64_t frame, int level) {
    if (level < 2)
        ExecutePlayerLoop(lib, phase, frame, level + 1);
    else
        ScriptRunBehaviourUpdate(lib, phase, frame);
}

struct ManagedJobData {
    MT_NATIVE static void Execute(const GameLibrary &lib, uint64_t frame, uint32_t job) {
        ScriptingInvocation::InvokeJob(lib.run_job, frame, job);
    }
};

}  // namespace

void PlayerLoop::Update(const GameLibrary &lib, uint64_t frame) {
    ExecutePlayerLoop(lib, Phase::Update, frame, 0);
}

void PlayerLoop::LateUpdate(const GameLibrary &lib, uint64_t frame) {
    ExecutePlayerLoop(lib, Phase::PreLateUpdate, frame, 0);
}

void JobQueue::Exec(const GameLibrary &lib, uint64_t frame, uint32_t job) {
    ManagedJobData::Execute(lib, frame, job);
}

}  // namespace mtsample
