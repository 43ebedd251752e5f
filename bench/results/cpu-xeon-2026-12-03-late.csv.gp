# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-03-late.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-03-late.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-03-late.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.2192
64 26.0048
EOD
$t0_1 << EOD
64 27.4673
EOD
$t0_2 << EOD
4 30.5675
64 47.1603
EOD
$t0_3 << EOD
64 50.0498
EOD
$t0_4 << EOD
4 29.1232
EOD
$t0_5 << EOD
4 45.3941
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
4 6.86175
64 4.37843
EOD
$t1_1 << EOD
64 3.81362
EOD
$t1_2 << EOD
4 9.03624
64 8.94826
EOD
$t1_3 << EOD
64 8.19476
EOD
$t1_4 << EOD
4 3.11629
EOD
$t1_5 << EOD
4 4.95657
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
4 5.45697
64 4.65433
EOD
$t2_1 << EOD
64 4.37614
EOD
$t2_2 << EOD
4 4.84561
64 7.71454
EOD
$t2_3 << EOD
64 9.87857
EOD
$t2_4 << EOD
4 1.48633
EOD
$t2_5 << EOD
4 2.22177
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
4 27.5631
64 24.9366
EOD
$t3_1 << EOD
64 23.5673
EOD
$t3_2 << EOD
4 32.0167
64 46.24
EOD
$t3_3 << EOD
64 45.8804
EOD
$t3_4 << EOD
4 18.0078
EOD
$t3_5 << EOD
4 28.8439
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
"cpu/sum: tilejit width-1, 1 thread" 1.05624
"cpu/sum: tilejit width-1, 2 threads" 1.06127
"cpu/sum: tilejit cooperative, 1 thread" 0.996712
"cpu/sum: tilejit cooperative, 2 threads" 1.48505
"cpu/histogram: tilejit width-1, 1 thread" 0.871001
"cpu/histogram: tilejit width-1, 2 threads" 0.915794
"cpu/histogram: tilejit cooperative, 1 thread" 0.454153
"cpu/histogram: tilejit cooperative, 2 threads" 0.548521
"cpu/compact: tilejit width-1, 1 thread" 0.940231
"cpu/compact: tilejit width-1, 2 threads" 1.28051
"cpu/compact: tilejit cooperative, 1 thread" 0.272372
"cpu/compact: tilejit cooperative, 2 threads" 0.458511
"cpu/copy: tilejit width-1, 1 thread" 0.945092
"cpu/copy: tilejit width-1, 2 threads" 0.992223
"cpu/copy: tilejit cooperative, 1 thread" 0.65333
"cpu/copy: tilejit cooperative, 2 threads" 0.900902
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
"ptx/store_doubled_thread_indices" 13.6344
"ptx/multiply_elements" 9.44772
"ptx/row_products" 8.29487
"ptx/replace_rows" 10.5017
"ptx/histogram" 12.1593
"ptx/compact_values" 6.90542
"ptx/large" 1.66326
"ptx-first/store_doubled_thread_indices" 7.84273
"ptx-first/multiply_elements" 7.76063
"ptx-first/row_products" 6.09477
"ptx-first/replace_rows" 6.71395
"ptx-first/histogram" 9.34767
"ptx-first/compact_values" 5.56733
"ptx-first/large" 1.41908
"disk/store_doubled_thread_indices" 1.52019
"disk/store_doubled_thread_indices (CPU)" 4.68305
"disk/multiply_elements" 1.71507
"disk/multiply_elements (CPU)" 4.66423
"disk/row_products" 2.33605
"disk/row_products (CPU)" 5.72326
"disk/replace_rows" 2.31617
"disk/replace_rows (CPU)" 8.28824
"disk/histogram" 2.49073
"disk/histogram (CPU)" 6.75351
"disk/compact_values" 2.78141
"disk/compact_values (CPU)" 8.19913
"disk/large" 5.00137
"disk/large (CPU)" 29.3796
"source/store_doubled_thread_indices" 14.152
"source-first/store_doubled_thread_indices" 6.67053
"source/multiply_elements" 8.7266
"source-first/multiply_elements" 6.46922
"source/row_products" 9.65917
"source-first/row_products" 4.98976
"source/replace_rows" 10.9544
"source-first/replace_rows" 4.42205
"source/histogram" 12.5183
"source-first/histogram" 7.93613
"source/compact_values" 6.25946
"source-first/compact_values" 3.29049
"source/large" 0.991295
"source-first/large" 1.44257
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
