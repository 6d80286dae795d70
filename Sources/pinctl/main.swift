import PinctlCLI

PinctlMain.run()
