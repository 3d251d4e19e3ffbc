/* Stand-in for the iOS SDK's <netinet/in.h>: BSD's sockaddr_in (sin_len first, a one-byte family).
 * docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_NETINET_IN_H
#define MT_SHIM_NETINET_IN_H
#include <sys/socket.h>
typedef uint16_t in_port_t;
typedef uint32_t in_addr_t;
struct in_addr {
    in_addr_t s_addr;
};
struct sockaddr_in {
    uint8_t sin_len;
    sa_family_t sin_family;
    in_port_t sin_port;
    struct in_addr sin_addr;
    char sin_zero[8];
};
#define IPPROTO_TCP 6
#endif
