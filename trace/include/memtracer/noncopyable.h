// noncopyable.h — MT_NONCOPYABLE(Class): the two deleted copy members of a class that owns a
// resource (an fd, a malloc'd block). A macro rather than a base class so that it costs no layout
// (an empty base shared by a class and its first member would add padding) and needs nothing from
// the standard library: the runtime, built without libstdc++, uses it too. Deleting the copy
// members also leaves the class without implicit moves; a class that moves declares its own.
#ifndef MEMTRACER_NONCOPYABLE_H
#define MEMTRACER_NONCOPYABLE_H

#define MT_NONCOPYABLE(Class)         \
    Class(const Class &) = delete;    \
    Class &operator=(const Class &) = delete

#endif
