/** The consumer as a module: on the module path it reads the library's exported packages only. */
module dev.gpureactor.consumer {
    requires dev.gpureactor;
}
