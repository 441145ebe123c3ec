// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: a virtual HQV video processing engine, exposed as V4L2
 * memory-to-memory devices.
 *
 * Frames queued on the OUTPUT queue are converted by the HQV engine
 * (engine/, shared with libm2m) and returned on the CAPTURE queue. Each
 * instance (the instances module parameter) is a platform device with two
 * video nodes sharing one engine: a single-planar one and a multi-planar
 * one, and an IR device (vhqv-ir.c). This file holds the module, the instances and nodes, the file
 * operations and the statistics; vhqv-priv.h lists the others.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <media/v4l2-event.h>
#include <media/v4l2-ioctl.h>

#include "vhqv-compat.h"
#include "vhqv-priv.h"

#define VHQV_MAX_INSTANCES	8

static unsigned int instances = 1;
module_param(instances, uint, 0444);
MODULE_PARM_DESC(instances, "Number of vhqv devices, 1 to 8 (default 1)");

unsigned int vhqv_ctx_mem_mb = 512;
module_param_named(ctx_mem_mb, vhqv_ctx_mem_mb, uint, 0644);
MODULE_PARM_DESC(ctx_mem_mb,
		 "Most MiB of buffers one open file may allocate (default 512)");

/*
 * On by default since v4l2-compliance 1.33 passes with them; Debian 12's
 * 1.22.1 expects the descriptions kernels had before 6.1's ("Y/CbCr
 * 4:2:0" for NV12) and fails ENUM_FMT, so the tests load vhqv without
 * them when only that one is there (docs/vhqv.md).
 */
static bool semiplanar = true;
module_param(semiplanar, bool, 0444);
MODULE_PARM_DESC(semiplanar,
		 "Offer NV12, NV21, NV16, NV61, NV24 (default on: see docs/vhqv.md)");

/*
 * v4l2-compliance -f streams every format pair at the largest size
 * offered: at 8192x8192 that takes hours in an emulated guest. One bound
 * for width and height, as the engine's own, so that turned frames fit.
 */
static unsigned int max_size = HQV_MAX_WIDTH;
module_param(max_size, uint, 0444);
MODULE_PARM_DESC(max_size,
		 "Largest width and height offered, 4 to 8192 (default 8192)");

unsigned int vhqv_workers;
module_param_named(workers, vhqv_workers, uint, 0444);
MODULE_PARM_DESC(workers,
		 "Most workers one frame is split across, 1 to 8 (default 0: one per online CPU)");

static struct dentry *vhqv_debugfs_root;

/*
 * File operations
 */

static int vhqv_open(struct file *file)
{
	struct vhqv_dev *dev = video_drvdata(file);
	struct video_device *vfd = video_devdata(file);
	struct vhqv_ctx *ctx;
	int ret;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;

	ctx->dev = dev;
	ctx->mplane = vfd == &dev->vfd[VHQV_NODE_MPLANE];
	ctx->offer.formats = (ctx->mplane ? VHQV_OFFER_MPLANE : 0) |
			     (semiplanar ? VHQV_OFFER_SEMIPLANAR : 0);
	ctx->offer.max_size = max_size;
	mutex_init(&ctx->vb_mutex);
	mutex_init(&ctx->pair_lock);
	mutex_init(&ctx->cfg_lock);
	vhqv_state_init(&ctx->offer, &ctx->st);
	ctx->may_run = vhqv_flow_may_run(&ctx->st.flow);
	v4l2_fh_init(&ctx->fh, vfd);
	file->private_data = &ctx->fh;

	ret = vhqv_ctrls_init(ctx);
	if (ret)
		goto err_free_ctx;

	ctx->fh.m2m_ctx = v4l2_m2m_ctx_init(dev->m2m_dev, ctx,
					    vhqv_queue_init);
	if (IS_ERR(ctx->fh.m2m_ctx)) {
		ret = PTR_ERR(ctx->fh.m2m_ctx);
		goto err_free_controls;
	}
	ret = v4l2_ctrl_handler_setup(&ctx->hdl);
	if (ret)
		goto err_release_m2m;

	vhqv_fh_add(&ctx->fh, file);
	return 0;

err_release_m2m:
	v4l2_m2m_ctx_release(ctx->fh.m2m_ctx);
err_free_controls:
	v4l2_ctrl_handler_free(&ctx->hdl);
err_free_ctx:
	v4l2_fh_exit(&ctx->fh);
	mutex_destroy(&ctx->cfg_lock);
	mutex_destroy(&ctx->pair_lock);
	mutex_destroy(&ctx->vb_mutex);
	kfree(ctx);
	return ret;
}

static int vhqv_release(struct file *file)
{
	struct vhqv_dev *dev = video_drvdata(file);
	struct vhqv_ctx *ctx = file_to_ctx(file);

	vhqv_fh_del(&ctx->fh, file);
	mutex_lock(&dev->dev_mutex);
	vhqv_m2m_ctx_release(ctx);
	mutex_unlock(&dev->dev_mutex);
	/*
	 * The file's event subscriptions go before the controls: dropping
	 * a control event's takes the control handler's lock (vim2m's order).
	 */
	v4l2_fh_exit(&ctx->fh);
	v4l2_ctrl_handler_free(&ctx->hdl);
	mutex_destroy(&ctx->cfg_lock);
	mutex_destroy(&ctx->pair_lock);
	mutex_destroy(&ctx->vb_mutex);
	kvfree(ctx->scratch);
	kvfree(ctx->prev_buf);
	kfree(ctx);
	return 0;
}

static const struct v4l2_file_operations vhqv_fops = {
	.owner		= THIS_MODULE,
	.open		= vhqv_open,
	.release	= vhqv_release,
	.poll		= vhqv_poll,
	.unlocked_ioctl	= video_ioctl2,
	.mmap		= v4l2_m2m_fop_mmap,
};

/*
 * Statistics, in debugfs: vhqv/<device>/stats.
 */

static int vhqv_stats_show(struct seq_file *m, void *unused)
{
	struct vhqv_dev *dev = m->private;
	u64 frames = atomic64_read(&dev->frames);
	u64 busy = atomic64_read(&dev->busy_ns);

	seq_printf(m, "frames: %llu\n", frames);
	seq_printf(m, "split_frames: %llu\n",
		   atomic64_read(&dev->split_frames));
	seq_printf(m, "aborted: %llu\n", atomic64_read(&dev->aborted));
	seq_printf(m, "busy_ns: %llu\n", busy);
	seq_printf(m, "mean_frame_ns: %llu\n",
		   frames ? div64_u64(busy, frames) : 0);
	seq_printf(m, "last_frame_ns: %llu\n", atomic64_read(&dev->last_ns));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vhqv_stats);

/*
 * Device
 */

/* The last reference to the device (its nodes' included) is gone. */
static void vhqv_dev_release(struct v4l2_device *v4l2_dev)
{
	struct vhqv_dev *dev = container_of(v4l2_dev, struct vhqv_dev,
					    v4l2_dev);
	unsigned int i;

	destroy_workqueue(dev->wq);
	destroy_workqueue(dev->band_wq);
	for (i = 0; i < ARRAY_SIZE(dev->helpers); i++)
		kvfree(dev->helpers[i].scratch);
	v4l2_m2m_release(dev->m2m_dev);
	v4l2_device_unregister(&dev->v4l2_dev);
	mutex_destroy(&dev->dev_mutex);
	kfree(dev);
}

static const char * const vhqv_node_names[VHQV_NODES] = {
	[VHQV_NODE_SINGLE] = VHQV_NAME,
	[VHQV_NODE_MPLANE] = VHQV_NAME "-mplane",
};

static int vhqv_register_node(struct vhqv_dev *dev, enum vhqv_node node)
{
	struct video_device *vfd = &dev->vfd[node];
	int ret;

	strscpy(vfd->name, vhqv_node_names[node], sizeof(vfd->name));
	vfd->vfl_dir = VFL_DIR_M2M;
	vfd->fops = &vhqv_fops;
	vfd->ioctl_ops = &vhqv_ioctl_ops[node];
	vfd->minor = -1;
	vfd->release = video_device_release_empty;
	vfd->lock = &dev->dev_mutex;
	vfd->v4l2_dev = &dev->v4l2_dev;
	vfd->device_caps = V4L2_CAP_STREAMING |
			   (node == VHQV_NODE_MPLANE ? V4L2_CAP_VIDEO_M2M_MPLANE :
			    V4L2_CAP_VIDEO_M2M);
	video_set_drvdata(vfd, dev);

	ret = video_register_device(vfd, VFL_TYPE_VIDEO, -1);
	if (!ret)
		v4l2_info(&dev->v4l2_dev, "registered %s as %s\n", vfd->name,
			  video_device_node_name(vfd));
	return ret;
}

/* The last probe's result, for vhqv_init(), which registers the devices. */
static int vhqv_probe_ret;

static int vhqv_probe_one(struct platform_device *pdev)
{
	struct vhqv_dev *dev;
	unsigned int i;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	mutex_init(&dev->dev_mutex);
	INIT_WORK(&dev->run_work, vhqv_run_work);
	for (i = 0; i < ARRAY_SIZE(dev->helpers); i++) {
		dev->helpers[i].dev = dev;
		INIT_WORK(&dev->helpers[i].work, vhqv_helper_work);
	}
	init_completion(&dev->bands.helpers_done);

	ret = v4l2_device_register(&pdev->dev, &dev->v4l2_dev);
	if (ret)
		goto err_free_dev;

	dev->wq = alloc_ordered_workqueue("%s", 0, dev_name(&pdev->dev));
	if (!dev->wq) {
		ret = -ENOMEM;
		goto err_unregister_v4l2;
	}
	dev->band_wq = alloc_workqueue("%s-bands", WQ_UNBOUND, 0,
				       dev_name(&pdev->dev));
	if (!dev->band_wq) {
		ret = -ENOMEM;
		goto err_destroy_wq;
	}

	dev->m2m_dev = v4l2_m2m_init(&vhqv_m2m_ops);
	if (IS_ERR(dev->m2m_dev)) {
		ret = PTR_ERR(dev->m2m_dev);
		goto err_destroy_wq;
	}
	platform_set_drvdata(pdev, dev);

	/*
	 * From here on, the last reference to the device frees it
	 * (vhqv_dev_release): a node, once registered, may be open (udev
	 * opens new nodes at once), and its file keeps the device until it
	 * is closed, also when probe fails after it.
	 */
	dev->v4l2_dev.release = vhqv_dev_release;
	ret = vhqv_register_node(dev, VHQV_NODE_SINGLE);
	if (ret)
		goto err_put_dev;
	ret = vhqv_register_node(dev, VHQV_NODE_MPLANE);
	if (ret)
		goto err_unregister_single;
	ret = vhqv_ir_register(dev, &pdev->dev);
	if (ret)
		goto err_unregister_mplane;

	dev->debugfs = debugfs_create_dir(dev_name(&pdev->dev),
					  vhqv_debugfs_root);
	debugfs_create_file("stats", 0444, dev->debugfs, dev,
			    &vhqv_stats_fops);
	return 0;

err_unregister_mplane:
	video_unregister_device(&dev->vfd[VHQV_NODE_MPLANE]);
err_unregister_single:
	video_unregister_device(&dev->vfd[VHQV_NODE_SINGLE]);
err_put_dev:
	v4l2_device_put(&dev->v4l2_dev);
	return ret;

err_destroy_wq:
	if (dev->band_wq)
		destroy_workqueue(dev->band_wq);
	destroy_workqueue(dev->wq);
err_unregister_v4l2:
	v4l2_device_unregister(&dev->v4l2_dev);
err_free_dev:
	mutex_destroy(&dev->dev_mutex);
	kfree(dev);
	return ret;
}

static int vhqv_probe(struct platform_device *pdev)
{
	vhqv_probe_ret = vhqv_probe_one(pdev);
	return vhqv_probe_ret;
}

static void vhqv_remove(struct platform_device *pdev)
{
	struct vhqv_dev *dev = platform_get_drvdata(pdev);
	unsigned int i;

	debugfs_remove_recursive(dev->debugfs);
	vhqv_ir_unregister(dev);
	for (i = 0; i < VHQV_NODES; i++)
		video_unregister_device(&dev->vfd[i]);
	/* Open files keep dev until they are closed. */
	v4l2_device_put(&dev->v4l2_dev);
}

VHQV_DECLARE_REMOVE(vhqv_remove);

static struct platform_driver vhqv_driver = {
	.probe	= vhqv_probe,
	VHQV_PLATFORM_REMOVE(vhqv_remove),
	.driver	= {
		.name = VHQV_NAME,
	},
};

static struct platform_device *vhqv_pdevs[VHQV_MAX_INSTANCES];

static void vhqv_unregister_instances(void)
{
	unsigned int i;

	for (i = 0; i < VHQV_MAX_INSTANCES; i++) {
		if (vhqv_pdevs[i])
			platform_device_unregister(vhqv_pdevs[i]);
		vhqv_pdevs[i] = NULL;
	}
}

static int __init vhqv_init(void)
{
	unsigned int i;
	int ret;

	if (instances < 1 || instances > VHQV_MAX_INSTANCES) {
		pr_err("vhqv: instances must be 1 to %d, not %u\n",
		       VHQV_MAX_INSTANCES, instances);
		return -EINVAL;
	}
	if (max_size < VHQV_MIN_MAX_SIZE || max_size > HQV_MAX_WIDTH) {
		pr_err("vhqv: max_size must be %d to %d, not %u\n",
		       VHQV_MIN_MAX_SIZE, HQV_MAX_WIDTH, max_size);
		return -EINVAL;
	}
	if (vhqv_workers > VHQV_MAX_WORKERS) {
		pr_err("vhqv: workers must be 0 (one per online CPU) to %d, not %u\n",
		       VHQV_MAX_WORKERS, vhqv_workers);
		return -EINVAL;
	}
	if (!vhqv_workers)
		vhqv_workers = clamp_t(unsigned int, num_online_cpus(), 1,
				       VHQV_MAX_WORKERS);

	vhqv_debugfs_root = debugfs_create_dir(VHQV_NAME, NULL);
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
	/* A debugfs folder's failure is no error (debugfs's rule). */
	fault_create_debugfs_attr("fail_vaddr", vhqv_debugfs_root,
				  &vhqv_fail_vaddr);
#endif
	/* Before the IR devices, so that they can enable RC-MM. */
	vhqv_rcmm_register();
	ret = platform_driver_register(&vhqv_driver);
	if (ret)
		goto err_remove_debugfs;

	for (i = 0; i < instances; i++) {
		vhqv_pdevs[i] = platform_device_register_simple(VHQV_NAME, i,
								NULL, 0);
		if (IS_ERR(vhqv_pdevs[i])) {
			ret = PTR_ERR(vhqv_pdevs[i]);
			vhqv_pdevs[i] = NULL;
			goto err_unregister_instances;
		}
		/*
		 * The driver is registered, so the device was probed as it
		 * was added; a probe that failed (out of memory) fails the
		 * load with its error, rather than leave the module loaded
		 * without its nodes.
		 */
		if (!platform_get_drvdata(vhqv_pdevs[i])) {
			ret = vhqv_probe_ret ? vhqv_probe_ret : -ENODEV;
			goto err_unregister_instances;
		}
	}
	return 0;

err_unregister_instances:
	vhqv_unregister_instances();
	platform_driver_unregister(&vhqv_driver);
err_remove_debugfs:
	vhqv_rcmm_unregister();
	debugfs_remove_recursive(vhqv_debugfs_root);
	return ret;
}

static void __exit vhqv_exit(void)
{
	vhqv_unregister_instances();
	platform_driver_unregister(&vhqv_driver);
	vhqv_rcmm_unregister();
	debugfs_remove_recursive(vhqv_debugfs_root);
}

module_init(vhqv_init);
module_exit(vhqv_exit);

MODULE_DESCRIPTION("Virtual HQV video processing engine (V4L2 mem2mem)");
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: v4l2-mem2mem videobuf2-vmalloc rc-core");
