# SPDX-License-Identifier: LGPL-2.1-or-later
# What the m2m command's test scripts (tests/tools/m2m-*) share; sourced,
# with $m2m the command and $dir a scratch folder set. A check that fails
# says "FAIL: what" and the script goes on, so that one run lists every
# check that fails (run against an older m2m, every defect it has);
# `finish` then exits 1 if any did.

failed=0
fail() {
	echo "FAIL: $*" >&2
	failed=$((failed + 1))
}

finish() {
	if [ "$failed" != 0 ]; then
		echo "$1: $failed checks failed" >&2
		exit 1
	fi
	echo "$1: ok"
}

# m2m_exits RC ARGS...: run `m2m ARGS` (stdin /dev/null, stdout into
# $dir/out, stderr into $dir/err) and check that it exits RC; returns 1
# when it did not.
m2m_exits() {
	_want=$1
	shift
	set +e
	"$m2m" "$@" <"/dev/null" >"$dir/out" 2>"$dir/err"
	rc=$?
	set -e
	[ "$rc" = "$_want" ] && return 0
	fail "m2m $*: exit $rc, not $_want: $(cat "$dir/err")"
	return 1
}

# says PATTERN: the last m2m's stderr is one line matching PATTERN (ERE).
says() {
	if [ "$(wc -l <"$dir/err")" != 1 ]; then
		fail "not one line on stderr: $(cat "$dir/err")"
	elif ! grep -Eq -- "$1" "$dir/err"; then
		fail "says '$(cat "$dir/err")', not /$1/"
	fi
}

# quiet: the last m2m printed nothing on stderr.
quiet() {
	[ ! -s "$dir/err" ] || fail "stderr: $(cat "$dir/err")"
}

# bad PATTERN ARGS...: bad usage, exit 2 with one line matching PATTERN.
bad() {
	_pattern=$1
	shift
	m2m_exits 2 "$@" && says "$_pattern"
	return 0
}
