// Linux-only system calls that Swift's Glibc module does not import.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/uio.h>
#include <malloc.h>

// A GNU extension: Glibc's module is built without _GNU_SOURCE, so it is declared here.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
