import Runtime
/// What `backdrop --help` and `backdrop COMMAND --help` print. One place, so the host and the
/// firmware build print the same words.
enum HelpText {
    /// `backdrop --help` is this, the command list (`CommandDispatcher.commands()`), then the tail.
    static let overviewHead = """
    backdrop: depth-camera photo booth. People in front of the camera appear live over a backdrop.

    usage: backdrop COMMAND [OPTIONS]
           backdrop --version

    commands:
    """

    static let overviewTail = """

    backdrop COMMAND --help (or backdrop help COMMAND) shows a command's options.
    exit codes: 0 success, 1 runtime failure (such as an output that cannot be written),
    2 usage or invalid input (nothing was done).
    """

    static let demo = """
    usage: backdrop demo [--frames N] [--out PATH] [--size WxH] [--config FILE] [--look NAME] [--force] [--quiet]

    Runs the synthetic RGB-D scene (a person at ~1.2 m before a wall at ~3 m) through the whole
    pipeline and writes the composite to PATH (.y4m video; default out/demo.y4m), then prints a
    summary with latency statistics, and writes PATH-sheet.png (PATH without .y4m): a contact
    sheet of six frames spread over the run, each beside its matte. Without images in the
    configured backgrounds folder it shows the project's generated backdrops.
      --frames N     frames to render (1..100000, default 300)
      --out PATH     output video (.y4m; its folder is made) or a directory for PNG frames
      --size WxH     output size (default 1280x720)
      --config FILE  take [matte], [background] and [pipeline] from FILE
      --look NAME    a look on the people and/or the backdrop (backdrop looks lists them)
      --force        empty a PNG folder that holds other files first (else refused)
      --quiet        no progress line (there is none either when stderr is not a terminal)
    Ctrl-C stops after the frame in hand; the summary and the sheet of the frames done still come.
    """

    static let looks = """
    usage: backdrop looks [--sheet OUT.png FRAME] [--config FILE]

    Lists the looks (built-in, then those of [looks] directory's looks.txt). With --sheet, draws
    every look on FRAME (a PNG or JPEG picture), each named, into one PNG, to choose by seeing.
      --sheet OUT.png FRAME  draw every look on FRAME into OUT.png
      --config FILE  take [looks] directory from FILE
    """

    static let renderMessage = """
    usage: backdrop render-message TEXT --out FILE.png [--size WxH] [--countdown]

    Draws TEXT as the box's message layer draws it (escaped, cut and placed the same way) on black,
    writes FILE.png and prints the rectangle it covers as "region X Y WIDTH HEIGHT", for comparing
    that region of a captured frame.
      --out FILE.png  where the picture goes
      --size WxH    output size (default 1920x1080)
      --countdown   the large countdown digits instead of a caption
    """

    static let makeBackdrops = """
    usage: backdrop make-backdrops DIR [--size WxH] [--jpeg] [--force]

    Writes the backdrops the project draws itself (sunset, night sky, party lights, studio grey)
    as DIR/NAME.png, for a box's backgrounds folder or a USB stick to start from.
      --size WxH  picture size (default 1920x1080, a 1080p TV)
      --jpeg      DIR/NAME.jpg instead (quality 90)
      --force     empty DIR first when it holds other files (else refused)
    """

    static let render = """
    usage: backdrop render RECORDING --background IMAGE --out DIR [--matte-out DIR] [--config FILE] [--size WxH]
                           [--sheet FILE.png] [--look NAME|FILE.cube] [--force] [--quiet]

    Composites every frame of RECORDING (DIR/color, DIR/depth, DIR/recording.ini) over IMAGE
    (PNG or JPEG) and writes DIR/NNNNNN.png; with --matte-out also the alpha mattes. Colour and
    depth pair by frame number; a frame missing one of them is skipped and counted. An output
    may not be, hold or lie inside RECORDING, IMAGE, FILE or the other output.
      --background IMAGE  the backdrop (scaled once with [background] fit)
      --out DIR           where the composited frames go (created if missing; a folder of
                          other files is refused, render's own earlier output replaced)
      --matte-out DIR     where the mattes go (8-bit grey PNG)
      --config FILE       thresholds ([matte], [background], [output] width/height)
      --size WxH          output size (default: the recording's colour size)
      --sheet FILE.png    also a contact sheet: six frames spread over the recording, each beside its matte
      --look NAME|FILE    a look by name (backdrop looks lists them) or a .cube file
      --force             empty output folders that hold other files first
      --quiet             no progress line (none either when stderr is not a terminal)
    """

    static let checkConfig = """
    usage: backdrop check-config FILE [--stick] [--backgrounds DIR]
           backdrop check-config --run-rules

    Validates FILE exactly as the device does: every key (each problem with the section, key, bad
    value and what is allowed), then what `run` refuses of their combination (such as a source
    without its sink). Unknown sections and keys are warnings, counted in the last line ("ok, with
    2 warnings"). A file too big or not text is refused in one line. Exit 0 when good, 2 when not.
      --stick            check it as a stick's backdrop.conf: also the stick's size limit (64 KiB)
                         and no path keys, as an import does
      --backgrounds DIR  also decode every image in DIR and report the ones that would be skipped
      --run-rules        print a config for each combination run's rules judge (for tests)
    """

    static let bench = """
    usage: backdrop bench [--size WxH] [--camera WxH] [--depth WxH] [--mode frame|layer|scaled-layer] [--fit fill|fit|stretch]
                        [--look NAME] [--registered] [--frames N] [--json]
           backdrop bench --backgrounds DIR [--size WxH]

    Measures each stage in ns per output pixel, with one worker and with all workers, for the
    cases a box runs: cameras 640x480, 848x480 and 1280x720 under a 1920x1080 output, and
    1920x1080 and 1280x720 at equal sizes; each as the CPU blend (frame) and as the overlay
    plane's camera layer (layer), and a camera smaller than the output as the camera-sized layer
    a scaling display plane takes (scaled-layer; ns per output pixel all the same). Beside each, memcpy moving the bytes that case must move
    (colour and depth read, backdrop read, output written), timed in the same run, and the ratio.
    Ends with one line per case: the frames per second it manages on this machine.
      --size WxH  the output size: the box cameras under it and the camera at its size
      --camera WxH  one camera size (output --size, default 1920x1080)
      --depth WxH  depth camera size (default: the camera's), e.g. 848x480
      --registered  depth from a camera beside the colour one (a D435's calibration), reprojected every frame
      --mode M  only frame, only layer or only scaled-layer
      --fit F  how the camera is fitted to the output (default fill; fit letterboxes it)
      --look NAME  also compose each frame with this look on the people, in the same loop:
               its ns/px and the ratio to compose without it
      --frames N  frames per measurement (1..10000, default 60)
      --json      one JSON object per case instead of text
      --backgrounds DIR  instead: switch twice round DIR's backdrops at --size (default 1920x1080)
                  and report the time until each is shown and the decode of the next that follows
    """

    static let run = """
    usage: backdrop run [--config FILE] [--frames N]

    The appliance loop. [camera] source and [output] sink in FILE (default /etc/backdrop/backdrop.conf)
    choose where frames come from and go. SIGTERM/SIGINT stop, SIGHUP reloads the config (and on
    the box rescans the backdrop folder), SIGUSR1 prints latency statistics, SIGUSR2 saves what the
    display shows into [photos] directory/screens (with writeback).
      --config FILE  the config (default /etc/backdrop/backdrop.conf; missing: the defaults)
      --frames N  stop after N frames (default: run until stopped)
    """

    static let eval = """
    usage: backdrop eval RECORDING --truth DIR [--config FILE] [--json] [--matte-out DIR] [--report DIR] [--force]
                         [--quiet]

    Runs the matte over every frame of RECORDING as render does and scores it against DIR's
    truth masks (8-bit grey PNGs named like the frames, 255 on the subject): IoU mean and
    minimum, boundary F-score (boundary pixels within 2 px), flicker (mean alpha change per frame
    where the truth is still) and lag (frames the matte trails the truth by).
      --config FILE  [matte] thresholds and, for unregistered depth, [camera] intrinsics
      --json         one JSON object instead of text
      --truth DIR    the truth masks
      --matte-out DIR  also write the mattes (8-bit grey PNG, named like the frames)
      --report DIR   pictures: the worst frames with the pixels the matte missed in red and the
                     ones it added in yellow (worst-N-NNNNNN.png), and IoU per frame (iou.png)
      --force        empty a --matte-out or --report folder that holds other files first
      --quiet        no progress line (none either with --json or when stderr is not a terminal)
    """

    static let record = """
    usage: backdrop record OUT [--frames N] [--config FILE] [--scene NAME] [--size WxH] [--force] [--quiet]

    Writes OUT/color/NNNNNN.png, OUT/depth/NNNNNN.png and OUT/recording.ini (unit, registration,
    intrinsics) from [camera] source in FILE (v4l2: the cameras, each colour frame paired with
    the next depth frame; synthetic; recording), so render and eval can read it. With --scene, records a hard test scene with truth masks in
    OUT/truth instead: group (three people on a floor, the nearest walking at 1 m/s),
    group-still, group-unregistered (depth from a camera 30 mm aside with a wider view; its
    colour camera goes to OUT/camera.conf).
      --frames N     frames to write (1..100000, default 30)
      --config FILE  the config whose [camera] source is recorded (default: the defaults, v4l2)
      --scene NAME   record a test scene instead: group, group-still or group-unregistered
      --size WxH     colour size of a --scene (default 320x240) or the synthetic source
      --force        empty OUT first when it holds files record did not write (else refused;
                     record's own earlier recording is replaced, never mixed with the new one)
      --quiet        no progress line (none either when stderr is not a terminal)
    """

    static let importStick = """
    usage: backdrop import STICK_ROOT [--data DIR] [--config FILE] [--quiet]

    Takes STICK_ROOT/backdrop/backdrop.conf and STICK_ROOT/backdrop/backgrounds/ (PNG, JPEG) into a
    new generation of DIR (default /var/lib/backdrop) and makes it DIR/current; the one before
    stays as DIR/previous. Each valid part is taken, each invalid one named with its reason while
    what it would replace stays. Symlinks, fifos and device nodes on the stick are never opened;
    a config that sets a path is refused. One line per item taken or skipped.
      --data DIR     the data folder (created when missing; its parent must exist)
      --config FILE  the box's own config, the first generation's when the stick brings none
                     (default /etc/backdrop/backdrop.conf)
      --quiet        no progress line (none either when stderr is not a terminal)
    exit: 0 new generation current; 2 nothing usable, or the stick holds what the current generation
    holds (nothing written); 1 runtime failure such as a full disk. On 2 and 1 the current
    generation is unchanged.
    """

    static let rollback = """
    usage: backdrop rollback [--data DIR]

    Makes DIR/previous current again (DIR default /var/lib/backdrop); the generation that was
    current becomes previous, so a second rollback undoes the first. Exit 2 when there is no
    previous generation.
      --data DIR  the data folder (default /var/lib/backdrop)
    """

    static let exportPhotos = """
    usage: backdrop export-photos STICK_ROOT [--data DIR] [--photos DIR]

    Copies the photos taken since the last export into STICK_ROOT/backdrop/photos/ (which must
    exist: that is how a stick asks for them). Names already on the stick are not overwritten.
      --data DIR    the data folder, which records what was exported (default /var/lib/backdrop)
      --photos DIR  where the box keeps its photos (default DIR/photos)
    The outcome in a few words ("37 PHOTOS COPIED", "PHOTOS NOT COPIED: STICK FULL - PHOTOS KEPT
    ON THE BOX") is left for the booth's screen in DIR/export-outcome, unless the stick has no
    backdrop/photos/ (it did not ask; the screen keeps the import's outcome).
    exit: 0 copied (also none), 2 no backdrop/photos/ on the stick or no --photos folder, 1 a write
    failed.
    """

    static let stickReleased = """
    usage: backdrop stick-released [--data DIR]

    Leaves "YOU CAN REMOVE THE STICK" for the booth's screen in DIR/unmount-outcome (default
    /var/lib/backdrop). The stick's unit runs it once it has unmounted a stick that is still
    plugged in, then sends the booth SIGHUP.
      --data DIR  the data folder (default /var/lib/backdrop)
    """
}
