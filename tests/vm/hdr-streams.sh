# shellcheck shell=sh
# Sourced by the vicodec scripts (vicodec-compliance, vicodec-decode):
# v4l2-ctl's codec streams, whole whatever the guest's speed.
#
# v4l2-ctl's codec loop (v4l2-ctl-streaming.cpp, stateful_m2m) sends
# ENC/DEC_CMD STOP once it has queued its last OUTPUT buffer, and from
# then on gives each result half a second: when the device takes longer
# for one (a 1280x720 frame on the debug kernel under TCG, beside another
# guest), v4l2-ctl ends there, silently and with status 0, and the stream
# or the picture file is a few frames short. So each is made longer than
# needed and cut: the frames done before the STOP are waited for 2 s each.
#
# --stream-to-hdr files: per frame, v4l2_fourcc("Vhdr") and the plane's size,
# each 32-bit big endian ("rdhV"...), then its bytes (one plane: FWHT);
# the layout tools/m2m/codec.c and m2m.read_hdr_stream() read, here in sh
# for the guest's scripts.

# The OUTPUT buffers v4l2-ctl is given: when it queues the last of COUNT
# frames, the first COUNT - HDR_EXTRA are done, before its STOP.
HDR_EXTRA=4
# (Their variables are named _hdr_*: sh has no locals, and the callers
# loop over size and stream.)

# _hdr_walk FILE [MOST]: over FILE's frames, MOST at most (all without
# it), checking each header: _hdr_n frames end at byte _hdr_at.
_hdr_walk() {
	_hdr_size=$(stat -c %s "$1")
	_hdr_at=0
	_hdr_n=0
	while [ "$_hdr_at" -lt "$_hdr_size" ] && [ "$_hdr_n" -lt "${2:-$_hdr_size}" ]; do
		[ "$(od -An -tx1 -j "$_hdr_at" -N4 "$1" | tr -d ' \n')" = 72646856 ] ||
			{ echo "hdr-streams: $1: no header at byte $_hdr_at" >&2; return 1; }
		_hdr_len=$(od -An -tu4 --endian=big -j $((_hdr_at + 4)) -N4 "$1" | tr -d ' ')
		_hdr_at=$((_hdr_at + 8 + _hdr_len))
		_hdr_n=$((_hdr_n + 1))
	done
	[ "$_hdr_at" -le "$_hdr_size" ] || { echo "hdr-streams: $1: frame $_hdr_n is cut" >&2; return 1; }
}

# hdr_frames FILE: how many frames FILE holds; fails on a broken file.
hdr_frames() {
	_hdr_walk "$1" || return 1
	echo "$_hdr_n"
}

# hdr_encode COUNT FILE V4L2-CTL-ARGS...: COUNT frames into FILE
# (--stream-to-hdr), from an encode of COUNT + HDR_EXTRA on HDR_EXTRA
# OUTPUT buffers, cut to the first COUNT.
hdr_encode() {
	_hdr_count=$1
	_hdr_file=$2
	shift 2
	v4l2-ctl "$@" --stream-out-mmap="$HDR_EXTRA" --stream-count=$((_hdr_count + HDR_EXTRA)) \
		--stream-to-hdr="$_hdr_file.whole"
	_hdr_walk "$_hdr_file.whole" "$_hdr_count" || return 1
	[ "$_hdr_n" = "$_hdr_count" ] ||
		{ echo "hdr-streams: v4l2-ctl encoded $_hdr_n frames for $_hdr_file, not $_hdr_count" >&2; return 1; }
	head -c "$_hdr_at" "$_hdr_file.whole" >"$_hdr_file"
	rm -f "$_hdr_file.whole"
}

# hdr_decode STREAM PAD BYTES OUT V4L2-CTL-ARGS...: the first BYTES of
# v4l2-ctl's decode (--stream-to) of STREAM into OUT, decoding STREAM then
# PAD (HDR_EXTRA frames of STREAM's last size, from hdr_encode) on
# HDR_EXTRA OUTPUT buffers, so that STREAM's own frames are all done
# before the STOP and its half-second.
hdr_decode() {
	_hdr_stream=$1
	_hdr_pad=$2
	_hdr_bytes=$3
	_hdr_out=$4
	shift 4
	cat "$_hdr_stream" "$_hdr_pad" >"$_hdr_out.in"
	v4l2-ctl "$@" --stream-out-mmap="$HDR_EXTRA" --stream-from-hdr="$_hdr_out.in" \
		--stream-to="$_hdr_out.whole"
	_hdr_got=$(stat -c %s "$_hdr_out.whole")
	rm -f "$_hdr_out.in"
	[ "$_hdr_got" -ge "$_hdr_bytes" ] ||
		{ echo "hdr-streams: v4l2-ctl decoded $_hdr_got bytes of $_hdr_stream, not $_hdr_bytes" >&2; return 1; }
	head -c "$_hdr_bytes" "$_hdr_out.whole" >"$_hdr_out"
	rm -f "$_hdr_out.whole"
}
