/** The scheduler demo on emulated GPUs ({@code org.polygpu.demo.MultiGpuDemo}). */
module org.polygpu.demo {
    requires org.polygpu.emulator;
}
