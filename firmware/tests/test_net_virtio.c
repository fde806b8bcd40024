/* Host unit tests of the virtio-net driver (net/virtio_net.c) and the
 * transport-independent virtio code under it (net/virtio.c): open's status
 * handshake and its unwinding when a step fails, memory reuse across
 * reopens, and frames through the split virtqueues.
 *
 * The PCI transports need port I/O and MMIO, so the device is simulated at
 * the transport ops (struct virtio_ops), the seam the drivers speak through:
 * a status register, a feature set, queue sizes, and a "device side" that
 * consumes TX chains and fills RX buffers through the rings as the spec
 * lays them out. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "net/netdev.h"
#include "net/netenv.h"
#include "tests/netenv_host.h"
#include "net/virtio.h"
#include "lib/errno.h"

/* ---- netenv for the host: a clock that runs while the driver waits ---- */
static uint64_t now_us;
uint64_t plat_now_us(void) { return now_us; }
void plat_cpu_relax(void) { now_us += 10; }
/* plat_alloc_zeroed, net_log, net_map_mmio: tests/netenv_host.c */
const char *net_cmdline(const char *key) { (void)key; return NULL; }

/* ---- PCI: one transitional virtio-net function (subsystem id 1) ---- */
static uint16_t pci_cmd;        /* the command register */
uint16_t pci_enable(const struct pci_device *d)
{
	(void)d;
	uint16_t old = pci_cmd;
	pci_cmd |= PCI_CMD_IO | PCI_CMD_MEM | PCI_CMD_MASTER;
	return old;
}
void pci_write16(const struct pci_device *d, unsigned off, uint16_t v)
{
	(void)d;
	assert_int_equal(off, PCI_COMMAND);
	pci_cmd = v;
}
uint16_t pci_read16(const struct pci_device *d, unsigned off) { (void)d; return off == PCI_SUBSYS_ID ? 1 : 0; }
int pci_scan(int (*fn)(struct pci_device *d, void *ctx), void *ctx) { (void)fn; (void)ctx; return 0; }
static int match_none(const struct pci_device *pci) { (void)pci; return 0; }
const struct net_driver e1000_driver = { "e1000", match_none, NULL };
const struct net_driver igb_driver = { "igb", match_none, NULL };

/* ---- the simulated device, behind the transport ops ---- */
#define F_MAC    (1ull << 5)
#define F_STATUS (1ull << 16)
static const uint8_t dev_mac[6] = { 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef };
static struct {
	uint8_t status;
	uint8_t status_or;          /* every value the status register was given, OR-ed */
	uint64_t features;          /* offered */
	unsigned qsize[2];          /* 0: queue absent */
	struct virtqueue *q[2];     /* as enabled by the driver */
	unsigned notified[2];
	uint16_t link;              /* config status (VIRTIO_NET_S_LINK_UP = 1) */
	int no_transport;           /* the legacy probe fails too */
	int stuck;                  /* a reset never reads back 0 */
} dev;

static uint8_t sim_get_status(struct virtio_dev *vd) { (void)vd; return dev.stuck ? 0x80 : dev.status; }
static void sim_set_status(struct virtio_dev *vd, uint8_t s)
{
	(void)vd;
	dev.status = s;
	dev.status_or |= s;
	if (s == 0)
		dev.q[0] = dev.q[1] = NULL;   /* a reset forgets the queues */
}
static int sim_negotiate(struct virtio_dev *vd, uint64_t want, uint64_t *got)
{
	(void)vd;
	*got = dev.features & want;
	return 0;
}
static uint8_t sim_config8(struct virtio_dev *vd, unsigned off)
{
	(void)vd;
	if (off < 6)
		return dev_mac[off];
	return (uint8_t)(dev.link >> (8 * (off - 6)));
}
static unsigned sim_queue_size(struct virtio_dev *vd, uint16_t id, unsigned max)
{
	(void)vd;
	unsigned n = id < 2 ? dev.qsize[id] : 0;
	return n > max ? max : n;
}
static int sim_queue_enable(struct virtio_dev *vd, struct virtqueue *q)
{
	(void)vd;
	assert_true(q->id < 2);
	dev.q[q->id] = q;
	return 0;
}
static void sim_notify(struct virtio_dev *vd, struct virtqueue *q)
{
	(void)vd;
	dev.notified[q->id]++;
}
static const struct virtio_ops sim_ops = {
	.name = "sim", .get_status = sim_get_status, .set_status = sim_set_status,
	.negotiate = sim_negotiate, .config8 = sim_config8, .queue_size = sim_queue_size,
	.queue_enable = sim_queue_enable, .notify = sim_notify,
};
/* The driver tries 1.0 first: not offered here, so it takes "legacy" (sim). */
int virtio_pci_modern_probe(struct virtio_dev *vd, const struct pci_device *pci)
{
	(void)vd; (void)pci;
	return -ENODEV;
}
int virtio_pci_legacy_probe(struct virtio_dev *vd, const struct pci_device *pci)
{
	(void)pci;
	if (dev.no_transport)
		return -ENODEV;
	vd->op = &sim_ops;
	return 0;
}

/* The device side of a ring: the next available head, or -1 when none. */
static int dev_avail_head(struct virtqueue *q, uint16_t *seen)
{
	if (q->avail[1] == *seen)
		return -1;
	return q->avail[2 + (*seen)++ % q->num];
}
/* The device side: publishes head as used, len bytes written. */
static void dev_used(struct virtqueue *q, uint16_t head, uint32_t len)
{
	volatile uint16_t *idx = (volatile uint16_t *)(q->used + 2);
	volatile uint8_t *e = q->used + 4 + 8 * (*idx % q->num);
	*(volatile uint32_t *)e = head;
	*(volatile uint32_t *)(e + 4) = len;
	(*idx)++;
}

static struct netdev nd;
static const struct pci_device pci = { 0, 3, 0, VIRTIO_VENDOR, 0x1000, 0x02000000 };

static int setup(void **state)
{
	(void)state;
	memset(&dev, 0, sizeof(dev));
	dev.features = F_MAC | F_STATUS | 1ull << 40;   /* and one we never take */
	dev.qsize[0] = dev.qsize[1] = 256;
	dev.link = 1;
	dma_fail_at = 0;
	pci_cmd = 0;
	memset(&nd, 0, sizeof(nd));
	nd.pci = pci;
	assert_true(virtio_net_driver.match(&pci));
	assert_int_equal(virtio_net_driver.probe(&nd, &pci), 0);
	return 0;
}
static int teardown(void **state)
{
	(void)state;
	dma_free_all();
	return 0;
}

static void test_probe_names_and_mac(void **state)
{
	(void)state;
	assert_string_equal(nd.name, "virtio-net(sim) 00:03.0");
	assert_memory_equal(nd.mac, dev_mac, 6);
	assert_int_equal(dev.status, 0);   /* probed, left reset */
}

/* No transport, or a device whose reset never completes: probe fails and
 * the function is left as found (no bus mastering). */
static void test_probe_failures_restore_command(void **state)
{
	(void)state;
	struct netdev other;
	memset(&other, 0, sizeof(other));
	pci_cmd = 0;
	dev.no_transport = 1;
	assert_int_equal(virtio_net_driver.probe(&other, &pci), -ENODEV);
	assert_int_equal(pci_cmd, 0);
	dev.no_transport = 0;
	dev.stuck = 1;
	assert_int_equal(virtio_net_driver.probe(&other, &pci), -ETIMEDOUT);
	assert_int_equal(pci_cmd, 0);
	assert_null(other.op);
}

static void test_open_handshake(void **state)
{
	(void)state;
	assert_int_equal(nd.op->open(&nd), 0);
	assert_int_equal(dev.status, VIRTIO_S_ACK | VIRTIO_S_DRIVER | VIRTIO_S_DRIVER_OK);
	assert_false(dev.status_or & VIRTIO_S_FAILED);
	assert_non_null(dev.q[0]);
	assert_non_null(dev.q[1]);
	/* 64 RX chains posted (256 entries, two descriptors each, 64 at most), one kick. */
	assert_int_equal(dev.q[0]->avail[1], 64);
	assert_int_equal(dev.q[0]->avail[0], VRING_AVAIL_F_NO_INTERRUPT);
	assert_int_equal(dev.notified[0], 1);
	assert_true(nd.op->link_up(&nd));
	dev.link = 0;
	assert_false(nd.op->link_up(&nd));
}

/* A device without VIRTIO_NET_F_MAC: open fails, the device is told so
 * (FAILED) and left reset, never DRIVER_OK. */
static void test_open_no_mac_unwinds(void **state)
{
	(void)state;
	dev.features = F_STATUS;
	assert_int_equal(nd.op->open(&nd), -ENODEV);
	assert_true(dev.status_or & VIRTIO_S_FAILED);
	assert_false(dev.status_or & VIRTIO_S_DRIVER_OK);
	assert_int_equal(dev.status, 0);
	assert_null(dev.q[0]);
}

/* No TX queue: -ENODEV, after the RX queue was enabled: the reset undoes it. */
static void test_open_missing_queue_unwinds(void **state)
{
	(void)state;
	dev.qsize[1] = 0;
	assert_int_equal(nd.op->open(&nd), -ENODEV);
	assert_true(dev.status_or & VIRTIO_S_FAILED);
	assert_int_equal(dev.status, 0);
	assert_null(dev.q[0]);
}

/* Memory runs out for the buffers, then for a ring: each open fails with
 * -ENOMEM and the device reset; once memory is there, open works, and a
 * reopen takes no more memory (the rings and buffers are kept). */
static void test_open_out_of_memory_then_reopen(void **state)
{
	(void)state;
	unsigned base = dma_nallocs;        /* the probe's state */
	dma_fail_at = base + 1;             /* the buffer block */
	assert_int_equal(nd.op->open(&nd), -ENOMEM);
	assert_int_equal(dev.status, 0);
	assert_true(dev.status_or & VIRTIO_S_FAILED);
	dma_fail_at = base + 2;             /* buffers got, then the RX ring fails */
	assert_int_equal(nd.op->open(&nd), -ENOMEM);
	assert_int_equal(dev.status, 0);
	assert_int_equal(nd.op->open(&nd), 0);
	unsigned used = dma_nallocs;
	assert_int_equal(used, base + 3);           /* buffers + two rings, each once */
	nd.op->close(&nd);
	assert_int_equal(dev.status, 0);
	assert_int_equal(nd.op->open(&nd), 0);
	assert_int_equal(dma_nallocs, used);
	assert_int_equal(dev.q[0]->avail[1], 64);   /* rings start empty again */
	assert_int_equal(dev.q[0]->last_used, 0);
}

/* One frame each way through the rings: TX as a header + frame chain the
 * device consumes; RX written by the device after a header the driver strips. */
static void test_frames_through_rings(void **state)
{
	(void)state;
	assert_int_equal(nd.op->open(&nd), 0);
	struct virtqueue *tx = dev.q[1], *rx = dev.q[0];
	uint8_t frame[60];
	for (unsigned i = 0; i < sizeof(frame); i++)
		frame[i] = (uint8_t)i;
	assert_int_equal(nd.op->transmit(&nd, frame, sizeof(frame)), 0);
	uint16_t seen = 0;
	int head = dev_avail_head(tx, &seen);
	assert_true(head >= 0);
	volatile struct vring_desc *h = &tx->desc[head], *d = &tx->desc[h->next];
	assert_int_equal(h->len, 10);                       /* legacy: no num_buffers */
	assert_true(h->flags & VRING_DESC_F_NEXT);
	assert_int_equal(d->len, sizeof(frame));
	assert_memory_equal((void *)(uintptr_t)d->addr, frame, sizeof(frame));
	assert_int_equal(dev_avail_head(tx, &seen), -1);
	assert_int_equal(dev.notified[1], 1);
	dev_used(tx, (uint16_t)head, 0);

	uint16_t rx_seen = 0;
	head = dev_avail_head(rx, &rx_seen);
	assert_true(head >= 0);
	h = &rx->desc[head];
	d = &rx->desc[h->next];
	assert_true(h->flags & VRING_DESC_F_WRITE);
	memset((void *)(uintptr_t)h->addr, 0, h->len);
	memcpy((void *)(uintptr_t)d->addr, "incoming-frame", 14);
	dev_used(rx, (uint16_t)head, h->len + 14);
	uint8_t buf[1514];
	unsigned kicks = dev.notified[0];
	assert_int_equal(nd.op->poll(&nd, buf, sizeof(buf)), 14);
	assert_memory_equal(buf, "incoming-frame", 14);
	assert_int_equal(dev.notified[0], kicks + 1);       /* the slot went back */
	assert_int_equal(rx->avail[1], 65);
	assert_int_equal(nd.op->poll(&nd, buf, sizeof(buf)), 0);
}

int main(void)
{
#define DEV(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		DEV(test_probe_names_and_mac),
		DEV(test_probe_failures_restore_command),
		DEV(test_open_handshake),
		DEV(test_open_no_mac_unwinds),
		DEV(test_open_missing_queue_unwinds),
		DEV(test_open_out_of_memory_then_reopen),
		DEV(test_frames_through_rings),
	};
	return cmocka_run_group_tests_name("net_virtio", tests, NULL, NULL);
}
