# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-04-night-a.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-04-night-a.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-04-night-a.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 99.2312
64 23.2815
EOD
$t0_1 << EOD
64 27.0927
EOD
$t0_2 << EOD
4 41.8961
64 40.3589
EOD
$t0_3 << EOD
64 43.0186
EOD
$t0_4 << EOD
4 78.0045
EOD
$t0_5 << EOD
4 94.3898
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
4 6.6488
64 6.52879
EOD
$t1_1 << EOD
64 5.9797
EOD
$t1_2 << EOD
4 8.9989
64 11.476
EOD
$t1_3 << EOD
64 11.7529
EOD
$t1_4 << EOD
4 5.55094
EOD
$t1_5 << EOD
4 8.70017
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
4 8.61481
64 8.40499
EOD
$t2_1 << EOD
64 10.9255
EOD
$t2_2 << EOD
4 10.145
64 10.6499
EOD
$t2_3 << EOD
64 19.823
EOD
$t2_4 << EOD
4 6.91108
EOD
$t2_5 << EOD
4 12.1193
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
4 97.7488
64 22.9
EOD
$t3_1 << EOD
64 25.9295
EOD
$t3_2 << EOD
4 47.22
64 41.0004
EOD
$t3_3 << EOD
64 46.9857
EOD
$t3_4 << EOD
4 84.5132
EOD
$t3_5 << EOD
4 67.2779
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 1.1637
"cpu/sum: tilejit width-1, 2 threads" 1.0659
"cpu/sum: tilejit cooperative, 1 thread" 0.786089
"cpu/sum: tilejit cooperative, 2 threads" 2.25295
"cpu/histogram: tilejit width-1, 1 thread" 0.915898
"cpu/histogram: tilejit width-1, 2 threads" 1.02413
"cpu/histogram: tilejit cooperative, 1 thread" 0.834879
"cpu/histogram: tilejit cooperative, 2 threads" 0.966803
"cpu/compact: tilejit width-1, 1 thread" 1.29988
"cpu/compact: tilejit width-1, 2 threads" 1.86134
"cpu/compact: tilejit cooperative, 1 thread" 0.802233
"cpu/compact: tilejit cooperative, 2 threads" 1.19461
"cpu/copy: tilejit width-1, 1 thread" 1.13229
"cpu/copy: tilejit width-1, 2 threads" 1.14598
"cpu/copy: tilejit cooperative, 1 thread" 0.864595
"cpu/copy: tilejit cooperative, 2 threads" 1.42478
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 18.8965
"ptx/multiply_elements" 13.832
"ptx/row_products" 9.33706
"ptx/replace_rows" 11.4952
"ptx/histogram" 14.2805
"ptx/compact_values" 7.71955
"ptx/large" 1.64827
"ptx-first/store_doubled_thread_indices" 7.04008
"ptx-first/multiply_elements" 6.6142
"ptx-first/row_products" 5.38495
"ptx-first/replace_rows" 6.15339
"ptx-first/histogram" 6.61114
"ptx-first/compact_values" 4.98111
"ptx-first/large" 1.52768
"disk/store_doubled_thread_indices" 2.27435
"disk/store_doubled_thread_indices (CPU)" 6.71407
"disk/multiply_elements" 2.54804
"disk/multiply_elements (CPU)" 7.78178
"disk/row_products" 2.96492
"disk/row_products (CPU)" 6.48172
"disk/replace_rows" 2.41795
"disk/replace_rows (CPU)" 8.05654
"disk/histogram" 2.3108
"disk/histogram (CPU)" 7.2736
"disk/compact_values" 2.84909
"disk/compact_values (CPU)" 8.5629
"disk/large" 5.71219
"disk/large (CPU)" 31.3922
"source/store_doubled_thread_indices" 19.2892
"source-first/store_doubled_thread_indices" 6.74755
"source/multiply_elements" 13.1444
"source-first/multiply_elements" 6.38648
"source/row_products" 9.04845
"source-first/row_products" 5.43679
"source/replace_rows" 8.06477
"source-first/replace_rows" 5.78351
"source/histogram" 13.943
"source-first/histogram" 6.13055
"source/compact_values" 7.46107
"source-first/compact_values" 4.64723
"source/large" 1.61105
"source-first/large" 1.50482
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
