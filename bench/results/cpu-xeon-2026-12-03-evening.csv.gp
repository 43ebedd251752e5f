# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-03-evening.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-03-evening.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-03-evening.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.4177
64 27.0618
EOD
$t0_1 << EOD
64 26.2527
EOD
$t0_2 << EOD
4 30.5405
64 47.7958
EOD
$t0_3 << EOD
64 49.0199
EOD
$t0_4 << EOD
4 21.698
EOD
$t0_5 << EOD
4 31.5507
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
4 6.64132
64 4.95509
EOD
$t1_1 << EOD
64 4.25876
EOD
$t1_2 << EOD
4 8.30753
64 9.14074
EOD
$t1_3 << EOD
64 7.82372
EOD
$t1_4 << EOD
4 3.03956
EOD
$t1_5 << EOD
4 3.03336
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
4 5.89024
64 4.85576
EOD
$t2_1 << EOD
64 5.05718
EOD
$t2_2 << EOD
4 7.45938
64 8.51768
EOD
$t2_3 << EOD
64 12.4574
EOD
$t2_4 << EOD
4 1.0998
EOD
$t2_5 << EOD
4 2.05036
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
4 27.98
64 25.5298
EOD
$t3_1 << EOD
64 24.8068
EOD
$t3_2 << EOD
4 41.3012
64 51.5974
EOD
$t3_3 << EOD
64 51.7248
EOD
$t3_4 << EOD
4 7.78781
EOD
$t3_5 << EOD
4 13.9653
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
"cpu/sum: tilejit width-1, 1 thread" 0.970099
"cpu/sum: tilejit width-1, 2 threads" 1.02561
"cpu/sum: tilejit cooperative, 1 thread" 0.737582
"cpu/sum: tilejit cooperative, 2 threads" 1.03308
"cpu/histogram: tilejit width-1, 1 thread" 0.859473
"cpu/histogram: tilejit width-1, 2 threads" 0.855918
"cpu/histogram: tilejit cooperative, 1 thread" 0.457674
"cpu/histogram: tilejit cooperative, 2 threads" 0.365134
"cpu/compact: tilejit width-1, 1 thread" 1.04148
"cpu/compact: tilejit width-1, 2 threads" 1.46253
"cpu/compact: tilejit cooperative, 1 thread" 0.186715
"cpu/compact: tilejit cooperative, 2 threads" 0.27487
"cpu/copy: tilejit width-1, 1 thread" 0.971678
"cpu/copy: tilejit width-1, 2 threads" 1.00247
"cpu/copy: tilejit cooperative, 1 thread" 0.278334
"cpu/copy: tilejit cooperative, 2 threads" 0.338134
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
"ptx/store_doubled_thread_indices" 14.5338
"ptx/multiply_elements" 12.0745
"ptx/row_products" 8.42725
"ptx/replace_rows" 9.49332
"ptx/histogram" 11.7801
"ptx/compact_values" 7.14838
"ptx/large" 1.64143
"ptx-first/store_doubled_thread_indices" 8.92094
"ptx-first/multiply_elements" 5.10152
"ptx-first/row_products" 6.68306
"ptx-first/replace_rows" 7.96689
"ptx-first/histogram" 8.48704
"ptx-first/compact_values" 5.07566
"ptx-first/large" 1.6183
"disk/store_doubled_thread_indices" 1.84066
"disk/store_doubled_thread_indices (CPU)" 7.3114
"disk/multiply_elements" 3.16623
"disk/multiply_elements (CPU)" 6.93048
"disk/row_products" 2.72193
"disk/row_products (CPU)" 6.6773
"disk/replace_rows" 2.6464
"disk/replace_rows (CPU)" 8.13751
"disk/histogram" 2.52629
"disk/histogram (CPU)" 7.64416
"disk/compact_values" 4.42273
"disk/compact_values (CPU)" 7.61824
"disk/large" 4.75383
"disk/large (CPU)" 33.1538
"source/store_doubled_thread_indices" 11.7891
"source-first/store_doubled_thread_indices" 8.08305
"source/multiply_elements" 11.7799
"source-first/multiply_elements" 5.48012
"source/row_products" 6.07725
"source-first/row_products" 7.77712
"source/replace_rows" 11.3815
"source-first/replace_rows" 8.13252
"source/histogram" 11.6366
"source-first/histogram" 8.82384
"source/compact_values" 10.3022
"source-first/compact_values" 6.99146
"source/large" 1.96737
"source-first/large" 1.58789
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
