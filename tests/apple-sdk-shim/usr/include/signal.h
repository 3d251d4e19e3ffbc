/* Stand-in for the iOS SDK's <signal.h>: Darwin signal numbers (SIGUSR1 30, SIGCHLD 20, ...),
 * sigset_t a 32-bit mask, pthread_sigmask declared here as on Apple. docs/runtime.md
 * "Apple compile check". */
#ifndef MT_SHIM_SIGNAL_H
#define MT_SHIM_SIGNAL_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGFPE 8
#define SIGKILL 9
#define SIGBUS 10
#define SIGSEGV 11
#define SIGSYS 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGURG 16
#define SIGSTOP 17
#define SIGTSTP 18
#define SIGCONT 19
#define SIGCHLD 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGIO 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGINFO 29
#define SIGUSR1 30
#define SIGUSR2 31
#define SIG_BLOCK 1
#define SIG_UNBLOCK 2
#define SIG_SETMASK 3
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int signo);
int sigdelset(sigset_t *set, int signo);
int sigismember(const sigset_t *set, int signo);
int pthread_sigmask(int how, const sigset_t *set, sigset_t *oset);
int kill(pid_t pid, int sig);
int raise(int sig);
#ifdef __cplusplus
}
#endif
#endif
