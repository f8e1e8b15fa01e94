# The virtual board's first config: photos through vkms's writeback connector, so a test reads
# back exactly what was on screen.
s/^writeback = false/writeback = true/
