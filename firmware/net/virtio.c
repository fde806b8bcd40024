/* Transport-independent virtio (net/virtio.h): the status handshake and the
 * split virtqueues, each through the device's transport ops. */
#include "net/virtio.h"
#include "net/netenv.h"
#include "net/bytes.h"
#include "lib/errno.h"

int virtio_reset(struct virtio_dev *vd)
{
	vd->op->set_status(vd, 0);
	/* Modern devices may finish the reset later: 0 reads back once done. */
	for (int i = 0; i < 1000000; i++) {
		if (vd->op->get_status(vd) == 0)
			return 0;
		plat_cpu_relax();
	}
	return -ETIMEDOUT;
}

void virtio_add_status(struct virtio_dev *vd, uint8_t bits)
{
	vd->op->set_status(vd, vd->op->get_status(vd) | bits);
}

int virtio_begin(struct virtio_dev *vd, uint64_t want, uint64_t *got)
{
	vd->op->set_status(vd, VIRTIO_S_ACK);
	vd->op->set_status(vd, VIRTIO_S_ACK | VIRTIO_S_DRIVER);
	return vd->op->negotiate(vd, want, got);
}

/* Bytes of a ring of num entries; *used_off: where its used ring starts. */
static unsigned ring_bytes(unsigned num, unsigned *used_off)
{
	unsigned avail_end = 16 * num + 6 + 2 * num;
	/* The legacy layout (used ring on the next 4 KiB boundary): what a
	 * legacy device requires, and within what 1.0 allows, so one layout
	 * serves both transports. */
	*used_off = (avail_end + 4095) & ~4095u;
	return *used_off + 6 + 8 * num;
}

int virtq_setup(struct virtio_dev *vd, struct virtqueue *q, uint16_t id, unsigned max)
{
	unsigned num = vd->op->queue_size(vd, id, max), used_off;
	if (num < 2)
		return -ENODEV;   /* absent, or no room for one two-descriptor chain */
	unsigned bytes = ring_bytes(num, &used_off);
	if (bytes > q->mem_bytes) {
		/* First open (or a device that grew its queue): the old block, if
		 * any, stays unused; the page allocator has no free. */
		uint8_t *mem = plat_alloc_zeroed(bytes);
		if (!mem)
			return -ENOMEM;
		q->mem = mem;
		q->mem_bytes = bytes;
	} else {
		net_memset(q->mem, 0, bytes);   /* a reopen starts from empty rings */
	}
	q->id = id;
	q->num = (uint16_t)num;
	q->desc = (volatile struct vring_desc *)q->mem;
	q->avail = (volatile uint16_t *)(q->mem + 16 * num);
	q->used = q->mem + used_off;
	q->avail_idx = q->last_used = 0;
	q->avail[0] = VRING_AVAIL_F_NO_INTERRUPT;   /* we poll the used ring */
	return vd->op->queue_enable(vd, q);
}

void virtq_add_avail(struct virtqueue *q, uint16_t head)
{
	q->avail[2 + q->avail_idx % q->num] = head;
	/* Ring entry before index: the device reads the entry once idx covers
	 * it. x86 keeps stores in order; the compiler barrier keeps GCC from
	 * reordering them. Pairs with the device's read of avail idx, then the
	 * entry. */
	__asm__ volatile("" ::: "memory");
	q->avail_idx++;
	q->avail[1] = q->avail_idx;
}

int virtq_get_used(struct virtqueue *q, uint32_t *id, uint32_t *len)
{
	uint16_t used_idx = *(volatile uint16_t *)(q->used + 2);
	if (used_idx == q->last_used)
		return 0;
	/* The element is read after the index that published it (x86 keeps
	 * loads in order; this stops the compiler hoisting them). Pairs with
	 * the device's write of the element before used idx. */
	__asm__ volatile("" ::: "memory");
	volatile uint8_t *e = q->used + 4 + 8 * (q->last_used % q->num);
	*id = *(volatile uint32_t *)e;
	*len = *(volatile uint32_t *)(e + 4);
	q->last_used++;
	return 1;
}

void virtq_kick(struct virtio_dev *vd, struct virtqueue *q)
{
	/* The avail idx store must be visible to the device before it is told
	 * to look: a full fence orders the ring writes (virtq_add_avail) before
	 * the doorbell, an I/O or uncached MMIO write. Pairs with the device's
	 * read of avail idx on the notification. */
	__asm__ volatile("mfence" ::: "memory");
	vd->op->notify(vd, q);
}
