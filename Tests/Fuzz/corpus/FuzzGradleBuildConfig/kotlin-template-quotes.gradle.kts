android {
    defaultConfig {
        val note = "${ """ buildConfigField("String", "PIN", "\"sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\"") """ }${ "\"" }"
        buildConfigField("String", "PIN", "\"sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=\"")
    }
}
