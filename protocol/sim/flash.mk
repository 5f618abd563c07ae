# protocol/sim/: the FLASH machine and FlashPoint (issue 6).
