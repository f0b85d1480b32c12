#!/bin/sh
# Regenerates the demo's cover photographs from the Debian packages they come from
# (see CREDITS.md): JPEG, at most 1600 px wide, quality ~82 (ffmpeg -q:v 3), 4:2:0,
# all metadata removed (the sources are upright: no EXIF orientation to keep).
#
#   apt-get install ffmpeg mate-backgrounds plasma-workspace-wallpapers
#   sh examples/demo/static/images/photos/make-photos.sh
set -eu
cd "$(dirname "$0")"
M=/usr/share/backgrounds/mate/nature
K=/usr/share/wallpapers

photo() { # SOURCE NAME [CROP]: CROP is ffmpeg's crop=W:H:X:Y (a detail of the source)
	ffmpeg -loglevel error -y -i "$1" -map_metadata -1 \
		-vf "${3:+$3,}scale='min(1600,iw)':-2:flags=lanczos" -pix_fmt yuvj420p -q:v 3 "$2.jpg"
}

# mate-backgrounds (nature/)
photo $M/Aqua.jpg water-drop
photo $M/Blinds.jpg backlit-leaf
photo $M/Dune.jpg dune-grass
photo $M/FreshFlower.jpg orange-petals
photo $M/Garden.jpg marigold
photo $M/GreenMeadow.jpg young-grass
photo $M/LadyBird.jpg ladybird
photo $M/RainDrops.jpg raindrops-on-leaf
photo $M/TwoWings.jpg dandelion-seeds
photo $M/Wood.jpg weathered-wood
photo $M/YellowFlower.jpg yellow-flower
photo $M/LadyBird.jpg forget-me-nots crop=1024:640:1330:960
photo $M/RainDrops.jpg grass-blades crop=960:600:960:0

# plasma-workspace-wallpapers (the 2560x1600 image of each wallpaper)
photo $K/BytheWater/contents/images/2560x1600.jpg lakeside-jetty
photo $K/ColdRipple/contents/images/2560x1600.jpg misty-pier
photo $K/DarkestHour/contents/images/2560x1600.jpg blue-hour-lake
photo $K/EveningGlow/contents/images/2560x1600.jpg rowing-boats-at-dusk
photo $K/FallenLeaf/contents/images/2560x1600.jpg fallen-leaf
photo $K/Kite/contents/images/2560x1600.jpg kite-in-the-sky
photo $K/OneStandsOut/contents/images/2560x1600.jpg moss
photo $K/Path/contents/images/2560x1600.jpg forest-path
photo $K/summer_1am/contents/images/2560x1600.jpg midnight-lake
photo $K/EveningGlow/contents/images/2560x1600.jpg sunset-sky crop=1152:720:1408:0
photo $K/Kite/contents/images/2560x1600.jpg white-cloud crop=1280:800:0:400
photo $K/Path/contents/images/2560x1600.jpg forest-floor crop=1152:720:1408:880
