/* The virtio device as a device driver sees it, whatever carries it: the
 * status handshake, feature negotiation, device configuration and split
 * virtqueues, behind a transport ops table. Two PCI transports fill it:
 * legacy (virtio 0.9.5, I/O BAR 0: net/virtio_pci_legacy.c) and modern
 * (virtio 1.0, vendor capabilities in memory BARs: net/virtio_pci_modern.c).
 * A device driver (net/virtio_net.c) speaks only through this header, in the
 * style of iPXE's virtio-pci.h / virtio-ring.h split.
 *
 * Error codes are negative lib/errno.h values. */
#ifndef NET_VIRTIO_H
#define NET_VIRTIO_H

#include <stdint.h>
#include "arch/pci.h"

#define VIRTIO_VENDOR 0x1af4

/* device status (virtio 1.0, 2.1) */
#define VIRTIO_S_ACK         1
#define VIRTIO_S_DRIVER      2
#define VIRTIO_S_DRIVER_OK   4
#define VIRTIO_S_FEATURES_OK 8
#define VIRTIO_S_FAILED      128

/* transport feature bits (6) */
#define VIRTIO_F_VERSION_1 32

#define VRING_DESC_F_NEXT  1
#define VRING_DESC_F_WRITE 2
#define VRING_AVAIL_F_NO_INTERRUPT 1

struct vring_desc { uint64_t addr; uint32_t len; uint16_t flags, next; };

/* One split virtqueue. The ring memory is allocated on the first open and
 * kept (the page allocator never frees), so a reopen reuses it. */
struct virtqueue {
	uint16_t num, id;
	volatile struct vring_desc *desc;
	volatile uint16_t *avail;     /* flags, idx, ring[num], used_event */
	volatile uint8_t *used;       /* flags, idx, {u32 id, u32 len}[num], avail_event */
	uint16_t avail_idx, last_used;
	volatile uint16_t *notify;    /* the doorbell, where the transport has one per queue */
	uint8_t *mem;                 /* the ring memory, and how many bytes of it */
	unsigned mem_bytes;
};

struct virtio_dev;

/* What a transport does; every function is given the device it probed. */
struct virtio_ops {
	const char *name;             /* "1.0", "legacy": for the console */
	uint8_t (*get_status)(struct virtio_dev *vd);
	void (*set_status)(struct virtio_dev *vd, uint8_t status);
	/* Accepts want ∩ the device's features plus what the transport itself
	 * requires (VERSION_1 on modern); the accepted set in *got. 0 or -E. */
	int (*negotiate)(struct virtio_dev *vd, uint64_t want, uint64_t *got);
	/* Byte off of the device-specific configuration. */
	uint8_t (*config8)(struct virtio_dev *vd, unsigned off);
	/* Selects queue id and sets its size: at most max where the transport
	 * lets the driver choose (modern), the device's fixed size otherwise
	 * (legacy). 0 when the queue does not exist. */
	unsigned (*queue_size)(struct virtio_dev *vd, uint16_t id, unsigned max);
	/* Tells the device where q's rings are and switches q on. 0 or -E. */
	int (*queue_enable)(struct virtio_dev *vd, struct virtqueue *q);
	/* Rings q's doorbell (the caller has fenced: virtq_kick). */
	void (*notify)(struct virtio_dev *vd, struct virtqueue *q);
};

/* A probed virtio PCI function: its transport and that transport's state. */
struct virtio_dev {
	const struct virtio_ops *op;
	union {
		struct {
			uint16_t io;          /* I/O BAR 0 */
			uint16_t cfg_off;     /* device config: 0x14, or 0x18 with MSI-X on */
		} legacy;
		struct {
			volatile uint8_t *common, *devcfg, *notify_base;
			uint32_t notify_mult;
		} modern;
	} u;
};

/* Fills vd (zeroed, as plat_alloc_zeroed returns it) for pci when it has a
 * virtio 1.0 register layout: 0, or -ENODEV. */
int virtio_pci_modern_probe(struct virtio_dev *vd, const struct pci_device *pci);
/* Fills vd for a transitional device (ids 0x1000-0x103f) with its legacy
 * I/O BAR: 0, or -ENODEV. */
int virtio_pci_legacy_probe(struct virtio_dev *vd, const struct pci_device *pci);

/* Device reset, waiting until it reads back as done (modern devices may
 * finish later): afterwards it does no more DMA. 0, or -ETIMEDOUT. */
int virtio_reset(struct virtio_dev *vd);
/* ACK and DRIVER, then the feature negotiation: 0 or -E. */
int virtio_begin(struct virtio_dev *vd, uint64_t want, uint64_t *got);
/* Adds bits to the device status. */
void virtio_add_status(struct virtio_dev *vd, uint8_t bits);

/* Sizes (at most max entries), allocates (first time only) and enables
 * queue id. 0, -ENODEV (no such queue, or too small), -ENOMEM, or the
 * transport's error. */
int virtq_setup(struct virtio_dev *vd, struct virtqueue *q, uint16_t id, unsigned max);
/* Publishes the descriptor chain starting at head. */
void virtq_add_avail(struct virtqueue *q, uint16_t head);
/* Next used element (head id, bytes written): 1, or 0 when none. */
int virtq_get_used(struct virtqueue *q, uint32_t *id, uint32_t *len);
/* Tells the device to look at q's available ring. */
void virtq_kick(struct virtio_dev *vd, struct virtqueue *q);

#endif
