// attach_fallback.cpp — mt_attach_il2cpp when this tree has no il2cpp_attach.cpp (the no-patch
// attach is built from that file when present; CMake picks one of the two).
#include "lifecycle.h"

extern "C" MT_API mt_status mt_attach_il2cpp(void) {
    mt::rt::set_last_error("MT_ERR_IL2CPP_NOT_FOUND: this runtime was built without the il2cpp attach");
    return MT_ERR_IL2CPP_NOT_FOUND;
}
