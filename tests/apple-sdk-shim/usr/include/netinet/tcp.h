/* Stand-in for the iOS SDK's <netinet/tcp.h> (docs/runtime.md "Apple compile check"). */
#ifndef MT_SHIM_NETINET_TCP_H
#define MT_SHIM_NETINET_TCP_H
#define TCP_NODELAY 0x01
#endif
