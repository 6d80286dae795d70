import PinctlCLI

// pinctl-serve is pinctl with the exporter: `pinctl serve` hands its command line over to it.
Serving.handler = ExporterLaunch.serve
PinctlMain.run()
