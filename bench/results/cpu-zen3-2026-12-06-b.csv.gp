# Charts of the tilejit-bench run in bench/results/cpu-zen3-2026-12-06-b.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen3-2026-12-06-b.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen3-2026-12-06-b.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 24.6947
64 23.0146
EOD
$t0_1 << EOD
64 23.7945
EOD
$t0_2 << EOD
64 39.6105
64 36.8349
EOD
$t0_3 << EOD
64 35.4069
EOD
$t0_4 << EOD
64 19.9448
EOD
$t0_5 << EOD
64 32.6597
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
64 5.71383
64 5.70026
EOD
$t1_1 << EOD
64 6.97118
EOD
$t1_2 << EOD
64 9.28211
64 9.50043
EOD
$t1_3 << EOD
64 12.1904
EOD
$t1_4 << EOD
64 5.9554
EOD
$t1_5 << EOD
64 11.5449
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
64 6.2002
64 6.19348
EOD
$t2_1 << EOD
64 8.49724
EOD
$t2_2 << EOD
64 9.65754
64 9.65792
EOD
$t2_3 << EOD
64 16.4939
EOD
$t2_4 << EOD
64 5.29388
EOD
$t2_5 << EOD
64 10.2763
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
64 17.9681
64 17.9237
EOD
$t3_1 << EOD
64 21.0086
EOD
$t3_2 << EOD
64 29.3337
64 28.0595
EOD
$t3_3 << EOD
64 29.9085
EOD
$t3_4 << EOD
64 18.8363
EOD
$t3_5 << EOD
64 27.0351
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
"cpu/sum: tilejit width-1, 1 thread" 0.963548
"cpu/sum: tilejit width-1, 2 threads" 0.893876
"cpu/sum: tilejit cooperative, 1 thread" 0.866615
"cpu/sum: tilejit cooperative, 2 threads" 0.886652
"cpu/histogram: tilejit width-1, 1 thread" 1.22005
"cpu/histogram: tilejit width-1, 2 threads" 1.31332
"cpu/histogram: tilejit cooperative, 1 thread" 1.04476
"cpu/histogram: tilejit cooperative, 2 threads" 1.2152
"cpu/compact: tilejit width-1, 1 thread" 1.37048
"cpu/compact: tilejit width-1, 2 threads" 1.70787
"cpu/compact: tilejit cooperative, 1 thread" 0.854751
"cpu/compact: tilejit cooperative, 2 threads" 1.06403
"cpu/copy: tilejit width-1, 1 thread" 1.16922
"cpu/copy: tilejit width-1, 2 threads" 1.0196
"cpu/copy: tilejit cooperative, 1 thread" 1.05092
"cpu/copy: tilejit cooperative, 2 threads" 0.963492
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
"ptx/store_doubled_thread_indices" 17.2952
"ptx/multiply_elements" 13.3386
"ptx/row_products" 9.82495
"ptx/replace_rows" 10.7704
"ptx/histogram" 13.03
"ptx/compact_values" 5.93657
"ptx/large" 1.6274
"ptx-first/store_doubled_thread_indices" 7.59182
"ptx-first/multiply_elements" 7.62273
"ptx-first/row_products" 6.05112
"ptx-first/replace_rows" 8.44942
"ptx-first/histogram" 6.99966
"ptx-first/compact_values" 5.17459
"ptx-first/large" 1.52302
"disk/store_doubled_thread_indices" 2.83979
"disk/store_doubled_thread_indices (CPU)" 8.50628
"disk/multiply_elements" 2.94231
"disk/multiply_elements (CPU)" 7.10851
"disk/row_products" 3.26696
"disk/row_products (CPU)" 7.625
"disk/replace_rows" 2.82385
"disk/replace_rows (CPU)" 10.1187
"disk/histogram" 2.86936
"disk/histogram (CPU)" 9.74908
"disk/compact_values" 3.46456
"disk/compact_values (CPU)" 13.6901
"disk/large" 6.39217
"disk/large (CPU)" 32.415
"source/store_doubled_thread_indices" 14.6477
"source-first/store_doubled_thread_indices" 8.16382
"source/multiply_elements" 14.4266
"source-first/multiply_elements" 8.14394
"source/row_products" 9.23805
"source-first/row_products" 6.35929
"source/replace_rows" 12.6562
"source-first/replace_rows" 8.53286
"source/histogram" 13.4556
"source-first/histogram" 7.22878
"source/compact_values" 7.6942
"source-first/compact_values" 5.43391
"source/large" 1.76636
"source-first/large" 1.6019
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
