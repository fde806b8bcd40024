/* lib/errno.h — negative error codes, net/'s one convention (drivers' probe,
 * open and xmit, the protocol parsers, the stack's waits): 0 (or a count) is
 * success, -E* says why not. The
 * values are Linux's, so a code in a console line reads the same as there. */
#ifndef XCB_LIB_ERRNO_H
#define XCB_LIB_ERRNO_H

#define EIO        5    /* the device did not do what it must (status, reset) */
#define EAGAIN    11    /* not now: a full ring, an address not resolved yet */
#define ENOMEM    12    /* page allocator exhausted */
#define ENODEV    19    /* not a device (or transport) this driver handles */
#define EINVAL    22    /* the device offers a value we cannot use */
#define EBADMSG   74    /* a malformed frame, message or address */
#define ETIMEDOUT 110   /* the device (or the peer) did not answer in time */
#define ECONNREFUSED 111 /* the peer said no: a DHCP NAK, the daemon refused the run */

#endif
