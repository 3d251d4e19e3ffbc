/* Stand-in for the iOS SDK's <sys/socket.h>: Darwin values (SOL_SOCKET 0xffff, SO_NOSIGPIPE
 * 0x1022, MSG_DONTWAIT 0x80) and BSD's sockaddr with its length byte. Darwin has no MSG_NOSIGNAL
 * (SO_NOSIGPIPE instead) and no accept4, so neither is declared. docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_SYS_SOCKET_H
#define MT_SHIM_SYS_SOCKET_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef unsigned int socklen_t;
typedef unsigned char sa_family_t;
struct sockaddr {
    unsigned char sa_len;
    sa_family_t sa_family;
    char sa_data[14];
};
#define AF_INET 2
#define SOCK_STREAM 1
#define SOL_SOCKET 0xffff
#define SO_REUSEADDR 0x0004
#define SO_ERROR 0x1007
#define SO_NOSIGPIPE 0x1022
#define MSG_DONTWAIT 0x80
#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2
int socket(int domain, int type, int protocol);
int setsockopt(int fd, int level, int name, const void *value, socklen_t len);
int getsockopt(int fd, int level, int name, void *value, socklen_t *len);
int bind(int fd, const struct sockaddr *addr, socklen_t len);
int listen(int fd, int backlog);
int accept(int fd, struct sockaddr *addr, socklen_t *len);
int connect(int fd, const struct sockaddr *addr, socklen_t len);
int getsockname(int fd, struct sockaddr *addr, socklen_t *len);
ssize_t recv(int fd, void *buf, size_t len, int flags);
ssize_t send(int fd, const void *buf, size_t len, int flags);
int shutdown(int fd, int how);
#ifdef __cplusplus
}
#endif
#endif
