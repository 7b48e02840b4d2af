# kmodel-bench reproduce --plot: the seeds' published figures and the
# cost model's predictions. Run: gnuplot reproduce.gp (in this directory)
set terminal pngcairo size 900,560 noenhanced
set output 'dd.png'
set title "dd between tmpfs files, BeagleBone White: published (points), predicted (lines)\nprofile " . 'beaglebone-white'
set logscale x 2
set xlabel 'block size (bytes)'
set ylabel 'MB/s'
set xtics ('512' 512, '1K' 1024, '4K' 4096, '16K' 16384, '32K' 32768, '64K' 65536, '1M' 1048576)
set key below maxrows 3
set grid
set yrange [0:110]
plot 'dd.dat' u 1:5 w l lt 1 lw 2 t 'predicted: without the series', \
     ''       u 1:6 w l lt 2 lw 2 t 'predicted: with the series', \
     ''       u 1:7 w l lt 3 lw 1 dt 2 t 'predicted: CONFIG_UACCESS_WITH_MEMCPY', \
     ''       u 1:2 w p lt 1 pt 7 ps 1.3 t 'published: without', \
     ''       u 1:3 w p lt 2 pt 5 ps 1.3 t 'published: with', \
     ''       u 1:4 w p lt 3 pt 9 ps 1.3 t 'published: CONFIG_UACCESS_WITH_MEMCPY'
set output 'iperf.png'
unset logscale x
unset xtics
set xtics nomirror
set title "iperf transmit, BeagleBoard-xM + AX88772, CONFIG_DEBUG_SLAB: predicted\nprofile " . 'beagleboard-xm-debug-slab'
set style fill solid 0.6 border -1
set boxwidth 0.7
set xlabel ''
set ylabel 'Mbit/s of payload'
set yrange [0:135]
set key inside top left
set bmargin 4
plot 'iperf.dat' u 1:3:xtic(2) w boxes lt 3 t 'predicted (the slower of CPU and link)', \
     ''          u 1:(strcol(5) eq '-' ? NaN : $5) w p pt 7 ps 2 lt 1 t 'published (TCP)', \
     94.15 w l lt 0 lw 2 t 'the AX88772 wire, 100 Mbit/s, at MSS 1448 (94.1)'
