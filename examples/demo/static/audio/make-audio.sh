#!/bin/sh
# Regenerates the demo's three guided-meditation recordings from the scripts in scripts/:
# espeak-ng reads each script slowly (a pause between paragraphs) over a soft generated bed
# (two low sine tones a fifth apart and quiet brown noise, faded in and out), mixed and encoded
# by ffmpeg to AAC in .m4a (mono, 24 kHz, 32 kbit/s). Deterministic for a given espeak-ng and
# ffmpeg (bit-exact flags, no dates in the file).
#
#   apt-get install espeak-ng ffmpeg
#   sh examples/demo/static/audio/make-audio.sh
set -eu
cd "$(dirname "$0")"
VOICE=en-gb+f2 # British English, a softer female variant
SPEED=130      # words per minute (espeak-ng's default is 175)
PITCH=40       # 0-99, default 50
LEAD=3         # seconds of music before the voice
TAIL=6         # seconds of music after it
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

record() { # NAME TITLE
	# Paragraphs (blank-line separated) become SSML sentences with a 2.5 s pause between them.
	{
		echo '<speak>'
		sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' \
			-e 's/^$/<break time="2500ms"\/>/' "scripts/$1.txt"
		echo '</speak>'
	} >"$tmp/$1.ssml"
	espeak-ng -m -v "$VOICE" -s "$SPEED" -p "$PITCH" -w "$tmp/$1.wav" -f "$tmp/$1.ssml"
	speech=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$tmp/$1.wav")
	total=$(echo "$speech + $LEAD + $TAIL" | bc)
	fade=$(echo "$total - 5" | bc)
	ffmpeg -loglevel error -y -fflags +bitexact \
		-i "$tmp/$1.wav" \
		-f lavfi -i "sine=frequency=110:sample_rate=24000:duration=$total" \
		-f lavfi -i "sine=frequency=165:sample_rate=24000:duration=$total" \
		-f lavfi -i "anoisesrc=color=brown:sample_rate=24000:amplitude=0.5:seed=7:duration=$total" \
		-filter_complex "\
[0:a]aresample=24000,adelay=${LEAD}s:all=1,apad,atrim=0:$total,volume=0.6[v];\
[1:a]volume=0.05,tremolo=f=0.1:d=0.6[t1];\
[2:a]volume=0.03,tremolo=f=0.13:d=0.6[t2];\
[3:a]lowpass=f=300,volume=0.18[n];\
[t1][t2][n]amix=inputs=3:normalize=0,afade=t=in:d=4,afade=t=out:st=$fade:d=5[bed];\
[v][bed]amix=inputs=2:normalize=0,alimiter=limit=0.9[out]" \
		-map '[out]' -ac 1 -ar 24000 -c:a aac -b:a 32k -flags:a +bitexact \
		-map_metadata -1 -metadata title="$2" -metadata artist="Stillpoint demo" \
		-movflags +faststart "$1.m4a"
	echo "$1.m4a: $(ffprobe -v error -show_entries format=duration -of csv=p=0 "$1.m4a") s, $(wc -c <"$1.m4a") bytes"
}

record mindful-breathing "A short practice of mindful breathing"
record body-scan "A short body scan for falling asleep"
record drifting-to-sleep "Quieting a busy mind at bedtime"
