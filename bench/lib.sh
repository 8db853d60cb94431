# bench/lib.sh - sourced by bench/bench_*.sh after `cd` to the repository
# root with QF set: makes QF absolute, sets OUT (the bench output folder
# beside the binary) and tool (bench/benchtool, built when missing).
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
OUT=$(dirname "$QF")/bench
tool=$OUT/benchtool
mkdir -p "$OUT"
if [ ! -x "$tool" ]; then
	# shellcheck disable=SC2046
	cc -O2 -std=c11 -Wall -Wextra -Werror -I. -o "$tool" bench/benchtool.c \
		$(pkg-config --cflags --libs jansson) || exit 2
fi
