/* lib/errno.h — negative error codes for the payload's driver entry points
 * (NIC probe/open, virtio transports): 0 is success, -E* says why not. The
 * values are Linux's, so a code in a console line reads the same as there. */
#ifndef XCB_LIB_ERRNO_H
#define XCB_LIB_ERRNO_H

#define EIO        5    /* the device did not do what it must (status, reset) */
#define ENOMEM    12    /* page allocator exhausted */
#define ENODEV    19    /* not a device (or transport) this driver handles */
#define EINVAL    22    /* the device offers a value we cannot use */
#define ETIMEDOUT 110   /* the device did not answer in time */

#endif
