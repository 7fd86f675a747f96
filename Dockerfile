# syntax=docker/dockerfile:1
# pagedots: build a static-stdlib binary, ship it on debian:bookworm-slim with
# only the libraries it loads at run time.

FROM swift:6.3-bookworm AS build
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends pkg-config libcairo2-dev libpango1.0-dev zlib1g-dev libglib2.0-dev libgif-dev libimagequant-dev libpng-dev libjpeg62-turbo-dev libwebp-dev libheif-dev libde265-dev libdav1d-dev libcurl4-openssl-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# The manifest names the test targets too; SwiftPM wants their folders present.
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product pagedots \
    && install -m 0755 .build/release/pagedots /usr/local/bin/pagedots

FROM debian:bookworm-slim AS runtime
# Runtime libraries only (scripts/docker-standin installs exactly this list):
# Cairo and Pango (GLib also for SHA-256), zlib, giflib and libimagequant (animated GIFs),
# libpng, libjpeg-turbo, libwebp with libwebpdemux, libheif with libde265 and dav1d (uploaded
# slides; libheif1 also depends on libaom and x265, its encoders, so apt brings them),
# libcurl with OpenSSL (URL slides; it brings its own dependencies, THIRD-PARTY-NOTICES.md) and
# ca-certificates (the CA bundle it verifies https sources against: without it every one fails TLS),
# the C++ runtime of the static Swift stdlib, the fonts that bar labels
# are drawn with (DejaVu Sans; Noto UI for Devanagari and Thai; WenQuanYi
# Micro Hei for Chinese, Japanese, Korean), and the time zones of calendar
# pages (tzdata).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcairo2 libpangocairo-1.0-0 zlib1g libglib2.0-0 libgif7 libimagequant0 libpng16-16 libjpeg62-turbo libwebp7 libwebpdemux2 libheif1 libde265-0 libdav1d6 libcurl4 ca-certificates libstdc++6 fontconfig fonts-dejavu-core fonts-noto-ui-core fonts-wqy-microhei tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 pagedots \
    && useradd --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin pagedots
COPY --from=build /usr/local/bin/pagedots /usr/local/bin/pagedots
USER 10001:10001
ENV PAGEDOTS_HOST=0.0.0.0 \
    PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 CMD ["pagedots", "health"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["pagedots"]
CMD ["serve"]
