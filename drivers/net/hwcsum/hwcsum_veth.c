/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A veth peer's TSO/GSO packets, segmented by Linux before the veth.
 *
 * A packet socket on a veth gets the peer's GSO packets whole (up to
 * 64 KiB), and net_af_packet in DPDK 22.11 has no PACKET_VNET_HDR to say
 * so: it copies what fits its ring's frame (2048 bytes by default) and
 * hands over a truncated frame with nothing to mark it. Linux already has
 * the answer for a veth end that cannot take GSO packets: while an XDP
 * program is attached to one end, veth_fix_features() takes TSO/GSO
 * (NETIF_F_GSO_SOFTWARE) off the other, so the peer's stack segments
 * before its veth and the peer's own settings stay as they were. hwcsum
 * attaches the smallest such program (XDP_PASS, two instructions) in
 * driver mode at start, through a BPF link: closing the link at close
 * detaches it, and so does the process's end, crash included, so nothing
 * outlives the port. A program someone else attached does the same and is
 * left alone.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/sockios.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hwcsum_private.h"

/* Linux's driver name for the interface, "" if it has none. */
static void
if_driver(const char *ifname, char *drv, size_t size)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr;
	int fd;

	drv[0] = '\0';
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&info;
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0)
		snprintf(drv, size, "%s", info.driver);
	close(fd);
}

static int
xdp_pass_load(void)
{
	const struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	/* It never reads the packet, so it takes multi-buffer frames too: a
	 * program that says so leaves the peer's MTU unlimited (veth caps it
	 * to a page otherwise). Kernels before 5.18 do not know the flag. */
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_XDP_HAS_FRAGS);
	int fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "hwcsum_pass", "GPL", prog,
			       RTE_DIM(prog), &opts);

	if (fd < 0 && errno == EINVAL)
		fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "hwcsum_pass", "GPL", prog,
				   RTE_DIM(prog), NULL);
	return fd < 0 ? -errno : fd;
}

int
hwcsum_veth_peer_segment(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);
	enum hwcsum_rx_mode mode = priv->args.peer_segment;
	LIBBPF_OPTS(bpf_link_create_opts, opts, .flags = XDP_FLAGS_DRV_MODE);
	char ifname[IF_NAMESIZE], drv[32];
	struct rte_eth_dev_info info;
	int fd, link;

	if (mode == HWCSUM_RX_OFF || priv->xdp_link >= 0 ||
	    strcmp(priv->sub_driver, "net_af_packet") != 0)
		return 0;
	if (rte_eth_dev_info_get(priv->sub_port, &info) != 0 || info.if_index == 0 ||
	    if_indextoname(info.if_index, ifname) == NULL)
		goto unknown;
	if_driver(ifname, drv, sizeof(drv));
	if (strcmp(drv, "veth") != 0) {
		if (mode == HWCSUM_RX_ON)
			HWCSUM_LOG(WARNING, "%s: peer_segment=on: %s is no veth (driver '%s'): its GSO/GRO packets still arrive whole; turn GRO off there",
				   dev->data->name, ifname, drv);
		return 0;
	}
	fd = xdp_pass_load();
	if (fd < 0) {
		link = fd;
		goto failed;
	}
	/* The link holds the program: its fd is not needed past this. */
	link = bpf_link_create(fd, info.if_index, BPF_XDP, &opts);
	close(fd);
	if (link == -EBUSY || link == -EEXIST) {
		/* Any XDP program on this end takes TSO/GSO off the peer. */
		HWCSUM_LOG(INFO, "%s: %s already has an XDP program: its veth peer segments its GSO packets",
			   dev->data->name, ifname);
		return 0;
	}
	if (link < 0)
		goto failed;
	priv->xdp_link = link;
	HWCSUM_LOG(NOTICE, "%s: XDP_PASS attached to veth %s: its peer segments its TSO/GSO packets before the veth (peer_segment=off to leave it)",
		   dev->data->name, ifname);
	return 0;
failed:
	/* peer_segment=on asked for it: start fails; auto goes on without. */
	rte_log(mode == HWCSUM_RX_ON ? RTE_LOG_ERR : RTE_LOG_WARNING,
		hwcsum_logtype,
		"net_hwcsum: %s: cannot attach XDP_PASS to veth %s: %s; the peer's TSO/GSO packets arrive cut to net_af_packet's frame size (turn TSO/GSO off on the peer)\n",
		dev->data->name, ifname, strerror(-link));
	return mode == HWCSUM_RX_ON ? link : 0;
unknown:
	rte_log(mode == HWCSUM_RX_ON ? RTE_LOG_ERR : RTE_LOG_DEBUG,
		hwcsum_logtype,
		"net_hwcsum: %s: sub-port %s names no interface: peer_segment has nothing to do\n",
		dev->data->name, priv->sub_name);
	return mode == HWCSUM_RX_ON ? -ENODEV : 0;
}

void
hwcsum_veth_peer_restore(struct rte_eth_dev *dev)
{
	struct hwcsum_private *priv = hwcsum_priv(dev);

	/* The last reference to the link: the program is detached. */
	if (priv->xdp_link >= 0)
		close(priv->xdp_link);
	priv->xdp_link = -1;
}
